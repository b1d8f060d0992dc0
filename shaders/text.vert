#version 330 core
// The on-screen text (step, agents, ms per step): a quad in pixels, textured with text drawn
// by cairo on the host.

layout(location = 0) in vec2 corner; // (0, 0) .. (1, 1)

uniform vec2 viewport_pixels;
uniform vec2 origin_pixels; // top-left corner of the text, from the top-left of the frame
uniform vec2 size_pixels;

out vec2 uv;

void main() {
  uv = corner;
  vec2 pixel = origin_pixels + corner * size_pixels;
  gl_Position = vec4(pixel.x / viewport_pixels.x * 2.0 - 1.0,
                     1.0 - pixel.y / viewport_pixels.y * 2.0, 0.0, 1.0);
}
