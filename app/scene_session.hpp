#pragma once

// A scenario opened for viewing: its planning world and the search of one query, which
// the window and `pathscope render` both draw. No window code here.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "planner/planning_world.hpp"
#include "planner/result.hpp"
#include "planner/search.hpp"
#include "render/camera.hpp"
#include "render/draw_list.hpp"
#include "render/layer_set.hpp"

namespace pathscope::app {

/// maps/default.json looked up in the working directory, then in the source tree the
/// binary was built from; nullopt when neither exists.
std::optional<std::filesystem::path> find_default_scenario();

/// Owns a PlanningWorld and a planner that borrows it; one query's search at a time.
class SceneSession {
 public:
  /// Loads a scenario JSON or a Moving AI .map ("" = the default scenario) and builds
  /// its world. Loading errors name the file and the field.
  static Result<std::unique_ptr<SceneSession>> open(const std::string& path);

  /// Builds the world of an already loaded, valid scenario.
  explicit SceneSession(Scenario scenario, std::string source = {});

  const PlanningWorld& world() const { return *world_; }
  const Scenario& scenario() const { return world_->scenario(); }
  /// The file the scenario came from ("" if built in memory).
  const std::string& source() const { return source_; }

  /// Runs query `index` to the end with its own planner, or `planner_override` if not
  /// empty (then with that planner's default parameters). Errors: bad index, unknown
  /// planner or movement class, parameters out of range.
  Status run_query(std::size_t index, const std::string& planner_override = {});
  /// Restarts the current query and stops after `expansions` (>= total = finished).
  void show_step(std::uint64_t expansions);

  /// The query that ran, if any.
  std::optional<std::size_t> query() const { return query_; }
  /// The planner of the current query, or nullptr.
  const Planner* planner() const { return planner_.get(); }
  /// The shown state of the search, or nullptr when no query ran.
  const PathResult* result() const { return planner_ ? &planner_->result() : nullptr; }
  /// Expansions of the finished search (the range of show_step).
  std::uint64_t total_expansions() const { return total_expansions_; }
  /// Expansions currently shown.
  std::uint64_t shown_expansions() const { return shown_expansions_; }
  /// The movement class drawn (the query's, or 0).
  std::size_t movement_class() const { return movement_class_; }

  /// Map and search, drawn into `out` (appends).
  void paint(const render::LayerSet& layers, render::DrawList& out) const;
  /// A camera on the viewer hints of the scenario, or fitting the world into the viewport.
  render::Camera initial_camera(Vec2 viewport_size) const;
  /// Fits the world into the camera's viewport.
  void fit(render::Camera& camera) const;
  /// One line: planner, status, length, cost, expansions.
  std::string status_line() const;

 private:
  std::unique_ptr<PlanningWorld> world_;
  std::string source_;
  std::unique_ptr<Planner> planner_;
  std::optional<std::size_t> query_;
  std::size_t movement_class_ = 0;
  std::uint64_t total_expansions_ = 0;
  std::uint64_t shown_expansions_ = 0;
};

}  // namespace pathscope::app
