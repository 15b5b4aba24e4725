# Checks of the repository's own conventions, run by CTest in every build tree (tier unit).

# Every C++ source is formatted by the repository's .clang-format (scripts/check_format.sh
# --fix formats them).
add_test(NAME style.clang_format COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check_format.sh)

# docs/cli.md is the binary's own --help, word for word (scripts/cli_reference.sh rewrites
# it after a change to an option or a sub-command).
add_test(NAME docs.cli_reference
         COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/cli_reference.sh $<TARGET_FILE:pathscope> --check)
