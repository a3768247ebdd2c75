#include "commands.hpp"
#include "eipc/common.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  CLI::App app{"eipc: Embedded IPC simulator, benchmark and certification suite"};
  app.require_subcommand(1);
  eipc::cli::add_run_command(app);
  eipc::cli::add_ccd_command(app);
  eipc::cli::add_certify_command(app);
  eipc::cli::add_embed_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a subcommand's own exit code
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {  // usage error (or --help, which exits 0)
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const eipc::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error: %s\n", e.what());
    return 4;
  }
  return 0;
}
