// Names are data. Every name Carbide is given (a source, a folder, a flag for nvcc) is either
// written where it goes in a form that keeps it one name, or refused here, before any tool sees
// it: never run, never pasted into code (docs/security.md).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace carbide::support {

// Why `path` cannot name a source that check or translate reads ("" when it can): a control
// character anywhere in it (the depfile has no way to write a newline, and clang's messages would
// split), bytes that are not UTF-8 (SARIF's URIs are), or a '"' or '\' in the file's own name
// (the host stubs #include the API header by that name, and a header name has no escapes).
std::string unusable_source_path(llvm::StringRef path);

// Why `path` cannot be the output folder ("" when it can): a control character, which the
// depfile cannot write.
std::string unusable_output_dir(llvm::StringRef path);

// Why `flag` cannot be handed to nvcc ("" when it can): nvcc runs its steps through a shell and
// puts values like -D's and -o's in double quotes unescaped, so '$', '`', '"' and '\' would be
// expanded there, and a control character would end the command.
std::string unsafe_nvcc_flag(llvm::StringRef flag);

// Whether nvcc's shell can take `path` as it is: letters, digits and "/._+-" only. The paths
// Carbide makes for nvcc (its scratch folder and the files in it) are checked with it.
bool is_plain_path(llvm::StringRef path);

// Whether `text` holds a byte below 0x20 or 0x7f: a newline, a tab, an escape.
bool has_control_character(llvm::StringRef text);

// `byte` as a three-digit octal escape (\012), which no following character can extend.
std::string octal_escape(unsigned char byte);

// `text` with every control character as an octal escape (a newline as \012), for messages and
// comments that name a file: a name never ends the line it stands in.
std::string printable_name(llvm::StringRef text);

}  // namespace carbide::support
