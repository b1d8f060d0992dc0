// Wavefront OBJ reading: the record forms used by exporters and every error message.
#include "host/navmesh/input_geometry.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace crowd {
namespace {

namespace fs = std::filesystem;

// A scratch directory per test, removed afterwards.
class ObjLoader : public ::testing::Test {
protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("crowd_obj_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // The message of the ScenarioError load_obj throws for `text`, or "" when it loads.
  std::string error_for(const std::string& text) {
    const fs::path path = write("bad.obj", text);
    try {
      load_obj(path, "scene.json", "world.mesh");
    } catch (const ScenarioError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(ObjLoader, ReadsAllFaceFormsAndIgnoresOtherRecords) {
  const fs::path path = write("forms.obj", "# exported by hand\n"
                                           "mtllib scene.mtl\n"
                                           "o Floor\n"
                                           "v 0 0 0\n"
                                           "v 1 0 0 1.0\n" // with w
                                           "v 1 0 1\n"
                                           "v 0 0 1\n"
                                           "vt 0 0\n"
                                           "vn 0 1 0\n"
                                           "g floor\n"
                                           "usemtl stone\n"
                                           "s off\n"
                                           "f 1 2 3\n"
                                           "f 1/1 3/1 4/1\n"
                                           "f 1/1/1 2/1/1 3/1/1 # trailing comment\n"
                                           "f 1//1 3//1 4//1\r\n"
                                           "f -4 -3 -2 -1\n"     // quad, relative
                                           "f\t1  2\t3 4 +2\n"); // pentagon
  const InputGeometry g = load_obj(path, "scene.json", "world.mesh");
  ASSERT_EQ(g.vertices.size(), 4u);
  EXPECT_EQ(g.vertices[1], glm::vec3(1, 0, 0));
  // 1 + 1 + 1 + 1 + 2 (quad fan) + 3 (pentagon fan).
  ASSERT_EQ(g.triangles.size(), 9u);
  EXPECT_EQ(g.triangles[0], glm::ivec3(0, 1, 2));
  EXPECT_EQ(g.triangles[1], glm::ivec3(0, 2, 3));
  EXPECT_EQ(g.triangles[3], glm::ivec3(0, 2, 3));
  EXPECT_EQ(g.triangles[4], glm::ivec3(0, 1, 2));
  EXPECT_EQ(g.triangles[5], glm::ivec3(0, 2, 3));
  EXPECT_EQ(g.triangles[8], glm::ivec3(0, 3, 1));
  EXPECT_EQ(g.walkable.size(), g.triangles.size());
  EXPECT_EQ(g.bounds_max, glm::vec3(1, 0, 1));
}

TEST_F(ObjLoader, NegativeIndicesAreRelativeToVerticesReadSoFar) {
  const fs::path path = write("rel.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf -3 -2 -1\n"
                                         "v 5 0 5\nv 6 0 5\nv 6 0 6\nf -3 -2 -1\n");
  const InputGeometry g = load_obj(path, "scene.json", "world.mesh");
  ASSERT_EQ(g.triangles.size(), 2u);
  EXPECT_EQ(g.triangles[0], glm::ivec3(0, 1, 2));
  EXPECT_EQ(g.triangles[1], glm::ivec3(3, 4, 5));
}

TEST_F(ObjLoader, MissingFileNamesTheScenarioAndJsonPath) {
  try {
    load_obj(dir_ / "nope.obj", "scene.json", "world.mesh");
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("scene.json"), std::string::npos) << what;
    EXPECT_NE(what.find("world.mesh"), std::string::npos) << what;
    EXPECT_NE(what.find("file not found: "), std::string::npos) << what;
    EXPECT_NE(what.find("nope.obj"), std::string::npos) << what;
  }
}

TEST_F(ObjLoader, EveryErrorNamesFileAndLine) {
  std::string cube;
  for (int i = 0; i < 38; ++i) {
    cube += "v " + std::to_string(i) + " 0 0\n";
  }
  struct Case {
    std::string text;
    std::string location; // file:line
    std::string problem;
  };
  const Case cases[] = {
      {cube + "f 1 2 40\n", "bad.obj:39", "face index 40 out of range (38 vertices)"},
      {cube + "f 1 2 -39\n", "bad.obj:39", "face index -39 out of range (38 vertices)"},
      {cube + "\n# comment\nf 0 1 2\n", "bad.obj:41", "face index 0 out of range (38 vertices)"},
      {cube + "f 1 2 x\n", "bad.obj:39", "face vertex 'x' is not an index"},
      {cube + "f 1 2 3/4x\n", "bad.obj:39", "face vertex '3/4x' is not an index"},
      {cube + "f 1 2 3/\n", "bad.obj:39", "face vertex '3/' is not an index"},
      {cube + "f 1 2 3/1/\n", "bad.obj:39", "face vertex '3/1/' is not an index"},
      {cube + "f 1 2 3//1/1\n", "bad.obj:39", "face vertex '3//1/1' is not an index"},
      {cube + "f 1 2\n", "bad.obj:39", "face needs at least 3 vertices"},
      {"v 1 2\n", "bad.obj:1", "vertex needs 3 coordinates (v x y z)"},
      {"v 0 0 0\nv 1 abc 0\n", "bad.obj:2", "vertex coordinate 'abc' is not a number"},
      {"v 0 0 nan\n", "bad.obj:1", "vertex coordinate 'nan' is not finite"},
      {"v inf 0 0\n", "bad.obj:1", "vertex coordinate 'inf' is not finite"},
      {"v 1e999 0 0\n", "bad.obj:1", "vertex coordinate '1e999' is not finite"},
      {"v 0 0 0\nv 1 0 0\nv 1 0 1\n", "bad.obj", "the mesh has no faces"},
      {"", "bad.obj", "the mesh has no faces"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.problem);
    const std::string what = error_for(c.text);
    // "scene.json: world.mesh: <dir>/bad.obj:39: face index 40 out of range (38 vertices)"
    EXPECT_EQ(what.rfind("scene.json: world.mesh: ", 0), 0u) << what;
    EXPECT_NE(what.find(c.location + ": " + c.problem), std::string::npos) << what;
    EXPECT_NE(what.find(c.problem), std::string::npos) << what;
  }
}

TEST_F(ObjLoader, FaceMayOnlyUseVerticesDefinedBefore) {
  const std::string what = error_for("v 0 0 0\nv 1 0 0\nf 1 2 3\nv 1 0 1\n");
  EXPECT_NE(what.find("bad.obj:3: face index 3 out of range (2 vertices)"), std::string::npos)
      << what;
}

} // namespace
} // namespace crowd
