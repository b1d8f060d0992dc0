#version 330 core
// Flat colour, from the vertex shader (triangles) or the wide-line geometry shader (lines).

in Shape {
  vec4 colour;
} shape_in;

out vec4 colour;

void main() {
  colour = shape_in.colour;
}
