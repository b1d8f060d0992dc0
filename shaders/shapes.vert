#version 330 core
// Everything drawn as plain coloured geometry on the ground: navmesh polygons and edges, walls,
// obstacles, trails and the selected agent's debug overlays.

layout(location = 0) in vec2 position; // ground (x, z), metres
layout(location = 1) in vec4 colour;   // straight (not premultiplied) alpha

uniform mat4 world_to_clip;

out Shape {
  vec4 colour;
} shape_out;

void main() {
  shape_out.colour = colour;
  gl_Position = world_to_clip * vec4(position, 0.0, 1.0);
}
