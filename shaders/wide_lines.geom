#version 330 core
// Lines of a given width in pixels: OpenGL core profiles need not draw lines wider than one
// pixel (glLineWidth > 1 is deprecated), so each segment becomes a quad here.

layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;

uniform vec2 viewport_pixels; // framebuffer width, height
uniform float width_pixels;

in Shape {
  vec4 colour;
} shape_in[];
out Shape {
  vec4 colour;
} shape_out;

void main() {
  vec2 a = gl_in[0].gl_Position.xy / gl_in[0].gl_Position.w;
  vec2 b = gl_in[1].gl_Position.xy / gl_in[1].gl_Position.w;
  vec2 dir = (b - a) * viewport_pixels;
  float len = length(dir);
  dir = len > 0.0 ? dir / len : vec2(1.0, 0.0);
  // Half the width across the line, and the same along it so joints close up.
  vec2 across = vec2(-dir.y, dir.x) * width_pixels / viewport_pixels;
  vec2 along = dir * width_pixels * 0.5 / viewport_pixels;
  shape_out.colour = shape_in[0].colour;
  gl_Position = vec4(a - along + across * 0.5, 0.0, 1.0);
  EmitVertex();
  gl_Position = vec4(a - along - across * 0.5, 0.0, 1.0);
  EmitVertex();
  shape_out.colour = shape_in[1].colour;
  gl_Position = vec4(b + along + across * 0.5, 0.0, 1.0);
  EmitVertex();
  gl_Position = vec4(b + along - across * 0.5, 0.0, 1.0);
  EmitVertex();
  EndPrimitive();
}
