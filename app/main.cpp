// pathscope: the window (no sub-command, `pathscope FILE` or `pathscope open FILE`) and
// the headless sub-commands, each an entry of the table of commands
// (app/cli/command_table.hpp). Exit codes: 0 success, 1 a failed check or bad input, 2
// bad usage. PATHSCOPE_VERSION comes from project() in CMakeLists.txt.

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"

namespace {

// The CLI11 app of the command at `path` under `root` ("" is `root` itself). The words
// before the last one name its group, which is reused, or made with no summary yet.
CLI::App& command_at(CLI::App& root, std::string_view path) {
  if (path.empty()) return root;
  const std::size_t space = path.rfind(' ');
  CLI::App& group = space == std::string_view::npos ? root : command_at(root, path.substr(0, space));
  const std::string name(space == std::string_view::npos ? path : path.substr(space + 1));
  const auto found = group.get_subcommands([&](CLI::App* sub) { return sub->get_name() == name; });
  return found.empty() ? *group.add_subcommand(name) : *found.front();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pathscope::app;
  CLI::App app{"", "pathscope"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("pathscope ") + PATHSCOPE_VERSION,
                       "print \"pathscope VERSION\" and exit");
  std::vector<std::pair<const CLI::App*, CliRunner>> runners;
  for (const CliCommand& entry : cli_commands()) {
    CLI::App& command = command_at(app, entry.path);
    command.description(std::string(entry.summary));
    if (entry.add_options) {
      runners.emplace_back(&command, entry.add_options(command));
    } else {
      command.require_subcommand(1);  // a group: one of its commands must follow
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  // The command named: the innermost sub-command parsed, or `pathscope` itself.
  const CLI::App* chosen = &app;
  while (!chosen->get_subcommands().empty()) chosen = chosen->get_subcommands().front();
  // `pathscope FILE solve ...`: the window's file goes alone, or after `open`.
  const auto given =
      app.get_options([](const CLI::Option* o) { return o->get_positional() && o->count() > 0; });
  if (chosen != &app && !given.empty()) {
    std::fprintf(stderr, "pathscope: %s before `%s`: name a file to open alone or after `open`\n",
                 given.front()->as<std::string>().c_str(), app.get_subcommands().front()->get_name().c_str());
    return kExitUsage;
  }
  for (const auto& [command, run] : runners) {
    if (command == chosen) return run();
  }
  return kExitUsage;  // unreachable: the parse refuses a group named without a command
}
