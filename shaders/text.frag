#version 330 core
// Premultiplied-alpha text image (cairo's ARGB32), blended with (ONE, ONE_MINUS_SRC_ALPHA).

in vec2 uv;
uniform sampler2D text_image;
out vec4 colour;

void main() {
  colour = texture(text_image, uv);
}
