#version 330 core
// Agents, instanced: one quad per agent around its disc. Per-instance attributes come straight
// from the simulation's arrays (positions as x, y, z; velocities as vx, vz), so a CUDA build can
// write positions into the buffer on the device (cuda/interop).

layout(location = 0) in vec2 corner;       // quad corner, (-1, -1) .. (1, 1)
layout(location = 1) in vec3 position;     // world position (x, y, z), per agent
layout(location = 2) in vec2 velocity;     // (vx, vz) m/s, per agent
layout(location = 3) in float radius;      // m, per agent
layout(location = 4) in float max_speed;   // m/s, per agent
layout(location = 5) in float state;       // AgentState (host/render/agent_style.h), per agent
layout(location = 6) in float type_colour; // index into type_colours, per agent
layout(location = 7) in vec2 facing;       // unit facing (x, z) of a film character, or 0

uniform mat4 world_to_clip;    // ground (x, z, 0, 1) to clip space
uniform int colour_mode;       // AgentColouring: 0 by speed / max_speed, 1 by state, 2 by type
uniform vec3 speed_stops[3];   // colours at speed ratio 0, 0.5, 1
uniform vec3 state_colours[4]; // per AgentState
uniform vec3 type_colours[8];  // palette::kTypeColours

out vec2 local;        // position inside the disc, unit radius
out vec2 heading;      // unit facing, else direction of motion, in disc space; 0 when neither
out vec3 fill_colour;

void main() {
  float speed = length(velocity);
  if (colour_mode == 1) {
    fill_colour = state_colours[clamp(int(state + 0.5), 0, 3)];
  } else if (colour_mode == 2) {
    fill_colour = type_colours[clamp(int(type_colour + 0.5), 0, 7)];
  } else {
    float ratio = clamp(max_speed > 0.0 ? speed / max_speed : 0.0, 0.0, 1.0);
    fill_colour = ratio < 0.5 ? mix(speed_stops[0], speed_stops[1], ratio * 2.0)
                              : mix(speed_stops[1], speed_stops[2], ratio * 2.0 - 1.0);
  }
  // A film character faces where its heading says, walking or standing (the film CSV's
  // heading); otherwise the mark shows the direction of motion.
  if (facing != vec2(0.0))
    heading = facing;
  else
    heading = speed > 0.01 ? velocity / speed : vec2(0.0);
  local = corner;
  vec2 ground = position.xz + corner * radius;
  gl_Position = world_to_clip * vec4(ground, 0.0, 1.0);
}
