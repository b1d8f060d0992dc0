#version 330 core
// An agent's disc: its colour inside, a dark rim, and a dark arrowhead near the rim pointing
// where it faces (film frames) or walks (the centre keeps the agent's colour).

in vec2 local;
in vec2 heading;
in vec3 fill_colour;

out vec4 colour;

const vec3 kMarkColour = vec3(0.08, 0.08, 0.10);

void main() {
  float r = length(local);
  if (r > 1.0)
    discard;
  vec3 c = fill_colour;
  if (r > 0.82)
    c = kMarkColour;
  if (heading != vec2(0.0)) {
    float along = dot(local, heading);
    float across = abs(local.x * heading.y - local.y * heading.x);
    // A wedge from 40% of the radius to the rim, widest at its base.
    if (along > 0.4 && across < (1.0 - along) * 0.6)
      c = kMarkColour;
  }
  colour = vec4(c, 1.0);
}
