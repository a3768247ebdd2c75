// Usage errors for arguments no option takes: named in order, with a likely intended option.
#include "commands.hpp"
#include "eipc/util/spelling.hpp"

namespace eipc::cli {

std::string unexpected_arguments_message(const CLI::App& app, int argc, char** argv, const std::string& what) {
  const auto colon = what.find(": ");
  const std::string listed = " " + (colon == std::string::npos ? what : what.substr(colon + 2)) + " ";
  const CLI::App* command = &app;
  for (const CLI::App* sub : app.get_subcommands()) command = sub;  // the subcommand that was parsed
  std::vector<std::string> options;
  for (const CLI::Option* o : command->get_options())
    for (const std::string& name : o->get_lnames()) options.push_back("--" + name);
  std::string unexpected, hints;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (listed.find(" " + arg + " ") == std::string::npos) continue;
    unexpected += (unexpected.empty() ? "" : " ") + arg;
    const std::string flag = arg.substr(0, arg.find('='));
    if (flag.rfind("--", 0) == 0) hints += did_you_mean(flag, options);
  }
  if (unexpected.empty()) return "error: " + what;  // not found as given: keep CLI11's own words
  const std::string help = command == &app ? "eipc --help" : "eipc " + command->get_name() + " --help";
  return "error: unexpected argument(s): " + unexpected + hints + " (see " + help + ")";
}

}  // namespace eipc::cli
