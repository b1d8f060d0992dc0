// The top-down view (host/render/camera.cpp): ground, pixels and clip space agree; zooming
// keeps the point under the cursor; picking finds the clicked agent.
#include "host/render/agent_picking.h"
#include "host/render/camera.h"

#include <gtest/gtest.h>

namespace crowd {
namespace {

TEST(ViewCamera, FitShowsTheWholeRectangleAndMapsBothWays) {
  const ViewCamera c = ViewCamera::fit({-10, -5}, {10, 5}, 400, 200, 0.0f);
  EXPECT_FLOAT_EQ(c.pixels_per_metre, 20.0f);
  EXPECT_EQ(c.to_pixel({-10, -5}), glm::vec2(0, 0));
  EXPECT_EQ(c.to_pixel({10, 5}), glm::vec2(400, 200));
  EXPECT_EQ(c.to_ground({200, 100}), glm::vec2(0, 0));
  // Clip space: top-left corner at (-1, 1), z grows downwards on screen.
  const glm::vec4 corner = c.world_to_clip() * glm::vec4(-10, -5, 0, 1);
  EXPECT_FLOAT_EQ(corner.x, -1.0f);
  EXPECT_FLOAT_EQ(corner.y, 1.0f);
}

TEST(ViewCamera, ZoomKeepsThePointUnderTheCursor) {
  ViewCamera c = ViewCamera::fit({0, 0}, {10, 10}, 300, 300);
  const glm::vec2 cursor{50, 70};
  const glm::vec2 before = c.to_ground(cursor);
  c.zoom_at(cursor, 2.5f);
  const glm::vec2 after = c.to_ground(cursor);
  EXPECT_NEAR(before.x, after.x, 1e-4);
  EXPECT_NEAR(before.y, after.y, 1e-4);
}

TEST(AgentPicking, NearestAgentWhoseDiscIsClicked) {
  SceneData scene;
  scene.setups.resize(3);
  SceneFrame frame;
  frame.positions = {{0, 0, 0}, {1, 0, 0}, {5, 0, 5}};
  frame.present = {1, 1, 0};
  EXPECT_EQ(pick_agent(scene, frame, {0.1f, 0.0f}), 0);
  EXPECT_EQ(pick_agent(scene, frame, {0.8f, 0.1f}), 1);
  EXPECT_EQ(pick_agent(scene, frame, {5.0f, 5.0f}), -1) << "agent 2 was removed";
  EXPECT_EQ(pick_agent(scene, frame, {3.0f, 3.0f}), -1);
}

} // namespace
} // namespace crowd
