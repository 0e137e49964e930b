//! The `kept` binary: parse the command line and hand over to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = kept::cli::Cli::parse();
    kept::cli::main(cli)
}
