// Headless rendering (host/render/crowd_renderer.cpp through EGL on Mesa): known scenes drawn
// offscreen, pixels checked where agents, walls and empty ground are; a replayed trajectory
// draws the same frame as the live run it came from.
#include "host/navmesh/navmesh.h"
#include "host/output/trajectory_writer.h"
#include "host/render/agent_style.h"
#include "host/render/crowd_renderer.h"
#include "host/render/live_source.h"
#include "host/render/offscreen_framebuffer.h"
#include "host/render/replay_source.h"
#include "host/render/trail_history.h"
#include "tests/cli/cli_runner.h"
#include "tests/render/gl_test_context.h"
#include "tests/support/link_worlds.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <tuple>
#include <utility>

namespace crowd {
namespace {

/// A 20 x 10 m room with one square pillar at (10, 5), four agents standing still.
constexpr char kScene[] = R"({
  "name": "render-test", "seed": 1, "dt": 0.1, "steps": 30,
  "world": {"bounds": [[0, 0], [20, 10]],
            "obstacles": [[[9, 4], [11, 4], [11, 6], [9, 6]]]},
  "defaults": {"radius": 0.4, "max_speed": 1.5},
  "agents": [
    {"position": [3, 3], "goal": [17, 7]},
    {"position": [17, 3], "goal": [3, 7]},
    {"position": [5, 8], "goal": [5, 8]},
    {"position": [15, 8], "goal": [2, 2]}
  ]})";

std::array<int, 3> rgb(const RgbaImage& image, glm::vec2 pixel) {
  const auto p = image.at(static_cast<int>(pixel.x), static_cast<int>(pixel.y));
  return {p[0], p[1], p[2]};
}

std::array<int, 3> rgb(glm::vec3 colour) {
  return {static_cast<int>(std::lround(colour.x * 255.0f)),
          static_cast<int>(std::lround(colour.y * 255.0f)),
          static_cast<int>(std::lround(colour.z * 255.0f))};
}

/// Same colour up to the rounding of 8-bit channels and interpolation.
void expect_colour(const std::array<int, 3>& got, const std::array<int, 3>& want,
                   const std::string& what) {
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(got[static_cast<std::size_t>(c)], want[static_cast<std::size_t>(c)], 2)
        << what << ": channel " << c << " is " << got[0] << "," << got[1] << "," << got[2]
        << ", expected " << want[0] << "," << want[1] << "," << want[2];
}

struct Drawn {
  RgbaImage image;
  ViewCamera camera;
};

Drawn draw(const SceneData& scene, const SceneFrame& frame, const ViewOptions& options,
           const ShapeLayer& trails = {}) {
  CrowdRenderer renderer(scene);
  OffscreenFramebuffer framebuffer(400, 240);
  Drawn drawn;
  drawn.camera = ViewCamera::fit(scene.bounds_min, scene.bounds_max, 400, 240);
  renderer.draw(frame, drawn.camera, options, trails, DebugOverlay{}, {});
  drawn.image = framebuffer.read();
  return drawn;
}

struct StillScene {
  Scenario scenario = parse_scenario(kScene, "render-test.json");
  NavMesh navmesh = NavMesh::build(scenario);
  SceneData scene = make_scene(scenario, navmesh, populate(scenario, navmesh));
  SceneFrame frame;
  StillScene() {
    for (const AgentSetup& s : scene.setups) {
      frame.positions.push_back(s.position);
      frame.velocities.emplace_back(0.0f);
      frame.present.push_back(1);
    }
  }
};

TEST(CrowdRenderer, AgentsWallsAndBackgroundHaveTheirColours) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  StillScene s;
  // Agent 1 walks at full speed to the right; the others stand.
  s.frame.velocities[1] = {1.5f, 0.0f};
  ViewOptions options;
  options.hud = false;
  const Drawn d = draw(s.scene, s.frame, options);
  for (std::size_t i = 0; i < s.frame.positions.size(); ++i) {
    const glm::vec2 centre = d.camera.to_pixel({s.frame.positions[i].x, s.frame.positions[i].z});
    const float ratio = i == 1 ? 1.0f : 0.0f;
    expect_colour(rgb(d.image, centre), rgb(speed_colour(ratio)),
                  "agent " + std::to_string(i) + " at its projected position");
  }
  // The pillar's centre is wall; the frame's corner lies in the margin outside the world.
  expect_colour(rgb(d.image, d.camera.to_pixel({10.0f, 5.0f})), rgb(palette::kWall), "the pillar");
  expect_colour(rgb(d.image, {1.0f, 1.0f}), rgb(palette::kBackground), "outside the world");
  // Walkable ground away from agents shows the navmesh.
  expect_colour(rgb(d.image, d.camera.to_pixel({10.0f, 8.5f})), rgb(palette::kNavmeshFill),
                "open floor");
}

TEST(CrowdRenderer, ColourByStateAndRemovedAgentsAreNotDrawn) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  StillScene s;
  s.frame.present[3] = 0; // removed
  ViewOptions options;
  options.hud = false;
  options.colouring = AgentColouring::State;
  options.navmesh = false;
  const Drawn d = draw(s.scene, s.frame, options);
  const auto at = [&](int i) {
    const glm::vec3& p = s.frame.positions[static_cast<std::size_t>(i)];
    return rgb(d.image, d.camera.to_pixel({p.x, p.z}));
  };
  // Agents 0 and 1 stand far from their goals (slowed); agent 2 stands on its goal.
  expect_colour(at(0), rgb(palette::kStateColours[1]), "agent 0, slowed");
  expect_colour(at(2), rgb(palette::kStateColours[2]), "agent 2, at its goal");
  expect_colour(at(3), rgb(palette::kBackground), "removed agent 3");
}

TEST(CrowdRenderer, ColourByTypeGivesEachTypeLabelItsPaletteColour) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  StillScene s;
  // Labels in order of first appearance by id: agent, cyclist, child; agent 3 is a cyclist too.
  s.scene.setups[1].params.type = "cyclist";
  s.scene.setups[2].params.type = "child";
  s.scene.setups[3].params.type = "cyclist";
  ViewOptions options;
  options.hud = false;
  options.navmesh = false;
  options.colouring = AgentColouring::Type;
  const Drawn d = draw(s.scene, s.frame, options);
  const auto at = [&](int i) {
    const glm::vec3& p = s.frame.positions[static_cast<std::size_t>(i)];
    return rgb(d.image, d.camera.to_pixel({p.x, p.z}));
  };
  expect_colour(at(0), rgb(palette::kTypeColours[0]), "agent 0, type 'agent'");
  expect_colour(at(1), rgb(palette::kTypeColours[1]), "agent 1, type 'cyclist'");
  expect_colour(at(2), rgb(palette::kTypeColours[2]), "agent 2, type 'child'");
  expect_colour(at(3), rgb(palette::kTypeColours[1]), "agent 3, a cyclist too");
  EXPECT_NE(at(0), at(1)) << "two types, two colours";
}

TEST(CrowdRenderer, AnAgentWaitingAtAWaypointIsNotPaintedStuck) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  StillScene s;
  // Agents 0 and 1 both stand far from their goals; agent 0 stands on a waypoint of its route
  // where it waits 2 s, agent 1 is just stuck.
  s.scene.setups[0].waypoints.push_back({s.scene.setups[0].position, 2.0f});
  ViewOptions options;
  options.hud = false;
  options.navmesh = false;
  options.colouring = AgentColouring::State;
  const Drawn d = draw(s.scene, s.frame, options);
  const auto at = [&](int i) {
    const glm::vec3& p = s.frame.positions[static_cast<std::size_t>(i)];
    return rgb(d.image, d.camera.to_pixel({p.x, p.z}));
  };
  const auto waiting = static_cast<std::size_t>(AgentState::Waiting);
  const auto slowed = static_cast<std::size_t>(AgentState::Slowed);
  expect_colour(at(0), rgb(palette::kStateColours[waiting]), "agent 0, waiting");
  expect_colour(at(1), rgb(palette::kStateColours[slowed]), "agent 1, stuck");
  EXPECT_NE(at(0), at(1));
}

TEST(CrowdRenderer, FilmFramesPointTheMarkWhereTheCharacterFaces) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  StillScene s;
  // Standing agents, which a per-step frame draws without a mark: agent 0 faces +x (heading
  // 90 degrees), the others +z (heading 0).
  s.frame.film = true;
  s.frame.headings_degrees.assign(s.frame.positions.size(), 0.0f);
  s.frame.headings_degrees[0] = 90.0f;
  ViewOptions options;
  options.hud = false;
  options.navmesh = false;
  const Drawn d = draw(s.scene, s.frame, options);
  const auto at = [&](int i, glm::vec2 offset) {
    const glm::vec3& p = s.frame.positions[static_cast<std::size_t>(i)];
    return rgb(d.image, d.camera.to_pixel(glm::vec2(p.x, p.z) + offset * 0.4f));
  };
  const std::array<int, 3> mark = {20, 20, 26}; // agents.frag's kMarkColour
  expect_colour(at(0, {0.6f, 0.0f}), mark, "agent 0, in front (+x)");
  expect_colour(at(0, {-0.6f, 0.0f}), rgb(speed_colour(0.0f)), "agent 0, behind");
  expect_colour(at(0, {0.0f, 0.6f}), rgb(speed_colour(0.0f)), "agent 0, at +z");
  // Agent 1 has heading 0: it faces +z.
  expect_colour(at(1, {0.0f, 0.6f}), mark, "agent 1, facing +z");
}

/// Live run of kScene written as a trajectory, then replayed: same frame at the same step.
TEST(CrowdRenderer, ReplayDrawsTheSameFrameAsLive) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  testing::TempDir dir;
  const auto scenario_file = dir.path() / "scene.json";
  std::ofstream(scenario_file) << kScene;
  const auto trajectory_file = dir.path() / "traj.csv";

  SimulationOptions sim_options;
  sim_options.backend = BackendKind::Cpu;
  sim_options.solver.threads = 1;
  LiveSource live(load_scenario(scenario_file), sim_options);
  ViewOptions options;
  options.hud = false;
  options.selected = 0; // the selection ring is drawn in both modes
  CrowdRenderer renderer(live.scene());
  OffscreenFramebuffer framebuffer(400, 240);
  const ViewCamera camera =
      ViewCamera::fit(live.scene().bounds_min, live.scene().bounds_max, 400, 240);
  const auto render = [&](const FrameSource& source, const TrailHistory& history) {
    ShapeLayer trails;
    trails.line_width_pixels = 1.5f;
    history.draw(trails);
    ViewOptions without_debug = options;
    // Debug overlays need solver state, which a trajectory lacks: compare what both draw.
    without_debug.samples = without_debug.neighbours = without_debug.walls =
        without_debug.corridor = false;
    framebuffer.bind();
    draw_source_frame(renderer, source, trails, camera, without_debug);
    return framebuffer.read();
  };

  constexpr int kStep = 20;
  RgbaImage live_image;
  {
    TrajectoryWriter writer(trajectory_file);
    TrailHistory trails(options.trail_length);
    trails.push(live.frame());
    const SceneFrame& f0 = live.frame();
    const std::vector<AgentPhase> walking(f0.positions.size(), AgentPhase::Walking);
    writer.write_frame(0, 0.0, f0.positions, f0.velocities, walking);
    while (live.frame().step < live.last_step()) {
      live.advance();
      trails.push(live.frame());
      const auto& sim = live.simulation();
      writer.write_frame(sim.step_index(), sim.time(), sim.positions(), sim.velocities(),
                         sim.phases());
      if (live.frame().step == kStep)
        live_image = render(live, trails);
    }
    writer.finish();
  }

  ReplaySource replay(load_scenario(scenario_file), trajectory_file);
  TrailHistory trails(options.trail_length);
  trails.push(replay.frame());
  while (replay.frame().step < kStep) {
    replay.advance();
    trails.push(replay.frame());
  }
  ASSERT_EQ(replay.frame().step, kStep);
  const RgbaImage replay_image = render(replay, trails);
  ASSERT_EQ(live_image.pixels.size(), replay_image.pixels.size());
  std::size_t differing = 0;
  for (std::size_t k = 0; k < live_image.pixels.size(); ++k)
    differing += live_image.pixels[k] != replay_image.pixels[k];
  EXPECT_EQ(differing, 0u) << "bytes differ between the live and the replayed frame";
  // And the frame shows something moving: agents left their start.
  EXPECT_NE(live.frame().positions[0], live.scene().setups[0].position);
}

TEST(CrowdRenderer, AnOrcaAgentsOverlayDrawsEachHalfPlaneInItsColour) {
  // Geometry only (no OpenGL): each half-plane is its boundary line and nine ticks on its
  // forbidden side, a neighbour's in one colour and a wall's in another.
  testing::TempDir dir;
  const auto scenario_file = dir.path() / "scene.json";
  std::ofstream(scenario_file) << kScene;
  SimulationOptions sim_options;
  sim_options.backend = BackendKind::Cpu;
  sim_options.avoidance_model = kAvoidanceOrca;
  LiveSource live(load_scenario(scenario_file), sim_options);
  for (int k = 0; k < 10; ++k)
    live.advance();
  const auto view = live.inspect(0);
  ASSERT_TRUE(view.has_value());
  ASSERT_GT(view->wall_half_planes, 0) << "the world's edge is within the agent's wall range";
  ViewOptions options;
  options.selected = 0;
  const DebugOverlay overlay = make_debug_overlay(live.scene(), live.frame(), options, &*view);
  const auto vertices_of = [&](glm::vec4 colour) {
    return std::count_if(overlay.over.lines.begin(), overlay.over.lines.end(),
                         [&](const ShapeVertex& v) { return v.colour == colour; });
  };
  const auto walls = static_cast<std::ptrdiff_t>(view->wall_half_planes);
  const auto agents = static_cast<std::ptrdiff_t>(view->half_planes.size()) - walls;
  EXPECT_EQ(vertices_of(palette::kWallHalfPlane), walls * 10 * 2);
  EXPECT_EQ(vertices_of(palette::kAgentHalfPlane), agents * 10 * 2);
  // They belong to the `samples` layer, with the chosen velocity.
  options.samples = false;
  const DebugOverlay without = make_debug_overlay(live.scene(), live.frame(), options, &*view);
  EXPECT_EQ(std::count_if(without.over.lines.begin(), without.over.lines.end(),
                          [](const ShapeVertex& v) {
                            return v.colour == palette::kWallHalfPlane ||
                                   v.colour == palette::kAgentHalfPlane;
                          }),
            0);
}

TEST(CrowdRenderer, ATtcAgentsOverlayDrawsItsFanByBothRatiosAndItsStopOrForcedRing) {
  // Geometry only (no OpenGL): each sample of the fan is an outer square shaded by its smoothed
  // ratio and an inner one by its ratio before smoothing, centred on the sample's velocity.
  testing::TempDir dir;
  const auto scenario_file = dir.path() / "scene.json";
  std::ofstream(scenario_file) << kScene;
  SimulationOptions sim_options;
  sim_options.backend = BackendKind::Cpu;
  sim_options.avoidance_model = kAvoidanceTtc;
  LiveSource live(load_scenario(scenario_file), sim_options);
  for (int k = 0; k < 10; ++k)
    live.advance();
  auto view = live.inspect(0);
  ASSERT_TRUE(view.has_value());
  ASSERT_FALSE(view->ttc_samples.empty());
  ASSERT_FALSE(view->stopped || view->forced);
  ViewOptions options;
  options.selected = 0;
  const DebugOverlay overlay = make_debug_overlay(live.scene(), live.frame(), options, &*view);
  const glm::vec3 p = live.frame().positions[0];
  const glm::vec2 at{p.x, p.z};
  // Two squares (four triangles) per sample and nothing else: not the penalty shades as well.
  ASSERT_EQ(overlay.over.triangles.size(), view->ttc_samples.size() * 12);
  bool differ = false;
  for (std::size_t k = 0; k < view->ttc_samples.size(); ++k) {
    const TtcDebugSample& sample = view->ttc_samples[k];
    const ShapeVertex* outer = &overlay.over.triangles[k * 12];
    const ShapeVertex* inner = outer + 6;
    for (int v = 0; v < 6; ++v) {
      EXPECT_EQ(outer[v].colour, ttc_ratio_colour(sample.smoothed)) << "sample " << k;
      EXPECT_EQ(inner[v].colour, ttc_ratio_colour(sample.ratio)) << "sample " << k;
    }
    // Opposite corners (a and c of add_square) straddle the sample's velocity.
    for (const ShapeVertex* square : {outer, inner}) {
      const glm::vec2 centre = 0.5f * (square[0].position + square[2].position);
      EXPECT_NEAR(centre.x, at.x + sample.velocity.x, 1e-4f) << "sample " << k;
      EXPECT_NEAR(centre.y, at.y + sample.velocity.y, 1e-4f) << "sample " << k;
    }
    EXPECT_LT(inner[2].position.x - inner[0].position.x, outer[2].position.x - outer[0].position.x);
    differ = differ || ttc_ratio_colour(sample.smoothed) != ttc_ratio_colour(sample.ratio);
  }
  EXPECT_TRUE(differ) << "smoothing changes some sample's shade here";
  const auto ring_vertices = [&](const DebugOverlay& o, glm::vec4 colour) {
    return std::count_if(o.over.lines.begin(), o.over.lines.end(),
                         [&](const ShapeVertex& v) { return v.colour == colour; });
  };
  EXPECT_EQ(ring_vertices(overlay, palette::kTtcStopped), 0);
  EXPECT_EQ(ring_vertices(overlay, palette::kTtcForced), 0);
  // A ring around the agent, one colour while it waits out its stop clock, another while it
  // forces its way.
  view->stopped = true;
  const DebugOverlay stopped = make_debug_overlay(live.scene(), live.frame(), options, &*view);
  EXPECT_EQ(ring_vertices(stopped, palette::kTtcStopped), 32 * 2);
  EXPECT_EQ(ring_vertices(stopped, palette::kTtcForced), 0);
  view->stopped = false;
  view->forced = true;
  const DebugOverlay forced = make_debug_overlay(live.scene(), live.frame(), options, &*view);
  EXPECT_EQ(ring_vertices(forced, palette::kTtcForced), 32 * 2);
  EXPECT_EQ(ring_vertices(forced, palette::kTtcStopped), 0);
  // All of it belongs to the `samples` layer.
  options.samples = false;
  const DebugOverlay without = make_debug_overlay(live.scene(), live.frame(), options, &*view);
  EXPECT_TRUE(without.over.triangles.empty());
  EXPECT_EQ(ring_vertices(without, palette::kTtcForced), 0);
}

TEST(CrowdRenderer, ACorridorModeAgentsOverlayDrawsItsCorridorSidesWithTheWalls) {
  // Geometry only (no OpenGL): each side a line in its own colour, beside the wall segments,
  // both only while walls are shown.
  testing::TempDir dir;
  const auto scenario_file = dir.path() / "scene.json";
  std::ofstream(scenario_file) << kScene;
  SimulationOptions sim_options;
  sim_options.backend = BackendKind::Cpu;
  LiveSource live(load_scenario(scenario_file), sim_options);
  live.advance();
  AgentDebugView view;
  view.agent = 0;
  view.wall_segments = {{0.0f, 0.0f, 1.0f, 0.0f}};
  view.corridor_sides = {{2.0f, 2.0f, 3.0f, 2.5f}, {3.0f, 2.5f, 3.0f, 4.0f}};
  ViewOptions options;
  options.selected = 0;
  options.neighbours = options.samples = false;
  const auto lines_of = [](const DebugOverlay& overlay, glm::vec4 colour) {
    std::vector<glm::vec4> found;
    for (std::size_t k = 0; k + 1 < overlay.over.lines.size(); k += 2)
      if (overlay.over.lines[k].colour == colour)
        found.emplace_back(overlay.over.lines[k].position.x, overlay.over.lines[k].position.y,
                           overlay.over.lines[k + 1].position.x,
                           overlay.over.lines[k + 1].position.y);
    return found;
  };
  const DebugOverlay overlay = make_debug_overlay(live.scene(), live.frame(), options, &view);
  EXPECT_EQ(lines_of(overlay, palette::kCorridorSide), view.corridor_sides);
  EXPECT_EQ(lines_of(overlay, palette::kWallSegment), view.wall_segments);
  options.walls = false;
  const DebugOverlay without = make_debug_overlay(live.scene(), live.frame(), options, &view);
  EXPECT_TRUE(lines_of(without, palette::kCorridorSide).empty());
}

/// The split room (tests/support/link_worlds.h) with a two-way link over its wall at z = 3 and
/// a one-way link at z = 9.
struct LinkScene {
  Scenario scenario = parse_scenario(test::split_room(R"([{"start": [12, 3], "end": [18, 3]},
                           {"start": [12, 9], "end": [18, 9], "bidirectional": false}])"),
                                     "links.json");
  NavMesh navmesh = NavMesh::build(scenario);
  SceneData scene = make_scene(scenario, navmesh, populate(scenario, navmesh));
};

TEST(CrowdRenderer, OffMeshLinksAreDrawnWithTheirDirectionAndRadius) {
  // Geometry only (no OpenGL): the line across, an arrowhead at each end a link leads to.
  const LinkScene s;
  const glm::vec4 colour(palette::kOffMeshLink, 1.0f);
  int across = 0, heads_at_start = 0, heads_at_end = 0;
  for (std::size_t k = 0; k + 1 < s.scene.links.lines.size(); k += 2) {
    const ShapeVertex& a = s.scene.links.lines[k];
    const ShapeVertex& b = s.scene.links.lines[k + 1];
    EXPECT_EQ(a.colour, colour);
    const float length = glm::length(b.position - a.position);
    if (length > 5.0f) {
      ++across;
      EXPECT_NEAR(a.position.x, 12.0f, 0.01f);
      EXPECT_NEAR(b.position.x, 18.0f, 0.01f);
    } else if (std::abs(length - std::hypot(0.35f, 0.18f)) < 0.01f) {
      // Arrowhead strokes start at the tip, the link's end point.
      (a.position.x < 15.0f ? heads_at_start : heads_at_end) += 1;
    }
  }
  EXPECT_EQ(across, 2);
  EXPECT_EQ(heads_at_end, 4);   // two strokes per link
  EXPECT_EQ(heads_at_start, 2); // the two-way link only
}

TEST(CrowdRenderer, AnOffMeshLinkShowsOverTheWallItCrosses) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  const LinkScene s;
  SceneFrame frame; // no agents
  ViewOptions options;
  options.hud = false;
  const Drawn d = draw(s.scene, frame, options);
  // The middle of the link at z = 3 lies on the wall (x 14-16); somewhere within a pixel of it
  // the link's colour shows, and the wall's a metre off the link.
  const glm::vec2 middle = d.camera.to_pixel({15.0f, 3.0f});
  bool shown = false;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      shown = shown || rgb(d.image, middle + glm::vec2(dx, dy)) == rgb(palette::kOffMeshLink);
  EXPECT_TRUE(shown) << "no link colour near the link's middle";
  expect_colour(rgb(d.image, d.camera.to_pixel({15.0f, 5.0f})), rgb(palette::kWall), "the wall");
}

// A scene with obstacle events: a crate from 2 s, moved at 5 s and turned, a barrel from 1 s
// to 4 s.
struct ObstacleScene {
  Scenario scenario = parse_scenario(R"({
    "world": {"bounds": [[0, 0], [30, 20]]},
    "agents": [{"position": [2, 2], "goal": [28, 18]}],
    "events": [
      {"time": 2, "add_obstacle": {"name": "crate", "position": [10, 10], "size": [4, 2]}},
      {"time": 1, "add_obstacle": {"name": "barrel", "position": [20, 5], "radius": 1}},
      {"time": 4, "remove_obstacle": {"name": "barrel"}},
      {"time": 5, "move_obstacle": {"name": "crate", "position": [15, 10], "yaw": 90}}
    ]})",
                                     "obstacles.json");
  NavMesh navmesh = NavMesh::build(scenario);
  SceneData scene = make_scene(scenario, navmesh, populate(scenario, navmesh));
};

// The x extent of the obstacles standing at `time`, as drawn (filled triangles).
std::pair<float, float> drawn_x_extent(const SceneData& scene, double time) {
  ShapeLayer layer;
  add_standing_obstacles(scene, time, layer);
  float lo = 1e9f, hi = -1e9f;
  for (const ShapeVertex& v : layer.triangles) {
    lo = std::min(lo, v.position.x);
    hi = std::max(hi, v.position.x);
  }
  return {lo, hi};
}

TEST(CrowdRenderer, ObstaclesOfTheEventsAreDrawnAtTheFramesTheyStand) {
  // Geometry only (no OpenGL).
  const ObstacleScene s;
  ASSERT_EQ(s.scene.obstacles.size(), 3u); // barrel, crate, crate moved
  ShapeLayer none;
  add_standing_obstacles(s.scene, 0.5, none);
  EXPECT_TRUE(none.triangles.empty());
  // 1.5 s: the barrel alone, 1 m round (20, 5).
  auto [lo, hi] = drawn_x_extent(s.scene, 1.5);
  EXPECT_NEAR(lo, 19.0f, 0.01f);
  EXPECT_NEAR(hi, 21.0f, 0.01f);
  // 3 s: the crate too, 4 m along x about x = 10.
  std::tie(lo, hi) = drawn_x_extent(s.scene, 3.0);
  EXPECT_NEAR(lo, 8.0f, 0.01f);
  EXPECT_NEAR(hi, 21.0f, 0.01f);
  // 4.5 s: the barrel is gone.
  std::tie(lo, hi) = drawn_x_extent(s.scene, 4.5);
  EXPECT_NEAR(hi, 12.0f, 0.01f);
  // 6 s: the crate moved to x = 15 and turned by 90 degrees: 2 m along x.
  std::tie(lo, hi) = drawn_x_extent(s.scene, 6.0);
  EXPECT_NEAR(lo, 14.0f, 0.01f);
  EXPECT_NEAR(hi, 16.0f, 0.01f);
}

TEST(CrowdRenderer, ADroppedObstacleShowsInTheFramesAfterItsTime) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  const ObstacleScene s;
  ViewOptions options;
  options.hud = false;
  options.navmesh = false;
  SceneFrame before; // no agents
  before.time = 1.5;
  SceneFrame after = before;
  after.time = 3.0;
  const Drawn early = draw(s.scene, before, options);
  const Drawn late = draw(s.scene, after, options);
  const glm::vec2 crate = early.camera.to_pixel({10.0f, 10.0f});
  EXPECT_NE(rgb(early.image, crate), rgb(palette::kWall)) << "the crate before its time";
  expect_colour(rgb(late.image, crate), rgb(palette::kWall), "the crate after its time");
}

TEST(CrowdRenderer, SelectedAgentOverlaysDrawLiveSolverState) {
  CROWD_REQUIRE_GL_CONTEXT(context);
  testing::TempDir dir;
  const auto scenario_file = dir.path() / "scene.json";
  std::ofstream(scenario_file) << kScene;
  SimulationOptions sim_options;
  sim_options.backend = BackendKind::Cpu;
  LiveSource live(load_scenario(scenario_file), sim_options);
  for (int k = 0; k < 10; ++k)
    live.advance();
  const auto view = live.inspect(0);
  ASSERT_TRUE(view.has_value());
  ASSERT_FALSE(view->samples.empty());
  ViewOptions options;
  options.selected = 0;
  const DebugOverlay overlay = make_debug_overlay(live.scene(), live.frame(), options, &*view);
  // One square (two triangles) per sample, the corridor's polygons under the agents.
  EXPECT_GE(overlay.over.triangles.size(), view->samples.size() * 6);
  EXPECT_FALSE(overlay.under.triangles.empty());
  // Drawn: the pixel at the lowest-penalty sample of the finest level is white.
  CrowdRenderer renderer(live.scene());
  OffscreenFramebuffer framebuffer(800, 480);
  ViewCamera camera = ViewCamera::fit(live.scene().bounds_min, live.scene().bounds_max, 800, 480);
  const glm::vec3 p = live.frame().positions[0];
  camera.centre = {p.x, p.z};
  camera.pixels_per_metre = 120.0f;
  options.hud = false;
  options.neighbours = options.walls = false;
  renderer.draw(live.frame(), camera, options, {}, overlay, {});
  const RgbaImage image = framebuffer.read();
  const VelocitySample* best = nullptr;
  for (const VelocitySample& s : view->samples)
    if (s.level == view->samples.back().level && (best == nullptr || s.penalty < best->penalty))
      best = &s;
  const glm::vec2 at = camera.to_pixel(glm::vec2(p.x, p.z) + best->velocity);
  expect_colour(rgb(image, at), {255, 255, 255}, "the best sample");
}

} // namespace
} // namespace crowd
