# Checks every #include "..." of the library and CLI sources against the module order
# (cmake/IdxmapModules.cmake writes the rules from the build's dependency graph):
#   - a file may include headers of its own folder and of the folders its library depends
#     on, directly or not; nothing else of the project (not tests/, not a module to its
#     right, not a sibling subsystem it does not depend on);
#   - a header named *_internal.h belongs to its folder: only files there include it.
# Run as: cmake -DRULES=<layering_rules.cmake> -DSOURCE_DIR=<root> [-DFILES=<a;b>]
#   -P check_layering.cmake
# FILES (paths relative to SOURCE_DIR) replaces the rules' list of files to check.
# Prints one `file:line: error: ...` per broken rule and fails when there is any.
cmake_minimum_required(VERSION 3.20)
include(${RULES})
if(DEFINED FILES)
  set(checked_files "${FILES}")
endif()

# The project's top-level folders: an include naming one of them is a project header.
set(project_roots "")
foreach(folder IN LISTS checked_folders)
  string(REGEX REPLACE "/.*" "" root "${folder}")
  list(APPEND project_roots ${root})
endforeach()
# ... and every folder at the root, so that a module no library declares yet (a new
# `codegen/`) is still a project header that must be allowed.
file(GLOB root_entries LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*)
foreach(entry IN LISTS root_entries)
  if(IS_DIRECTORY ${SOURCE_DIR}/${entry} AND NOT entry MATCHES "^(\\.|build)")
    list(APPEND project_roots ${entry})
  endif()
endforeach()
list(APPEND project_roots tests bench fuzz)
list(REMOVE_DUPLICATES project_roots)

# The 1-based line of the first occurrence of `needle` in `file`.
function(line_of file needle out)
  file(READ ${SOURCE_DIR}/${file} content)
  string(FIND "${content}" "${needle}" offset)
  string(SUBSTRING "${content}" 0 ${offset} before)
  string(REGEX MATCHALL "\n" newlines "${before}")
  list(LENGTH newlines count)
  math(EXPR line "${count} + 1")
  set(${out} ${line} PARENT_SCOPE)
endfunction()

set(errors 0)
foreach(file IN LISTS checked_files)
  get_filename_component(folder ${file} DIRECTORY)
  set(allowed "${allowed_${folder}}")
  set(owner "${library_of_${folder}}")
  file(STRINGS ${SOURCE_DIR}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" header "${line}")
    get_filename_component(header_folder "${header}" DIRECTORY)
    string(REGEX REPLACE "/.*" "" header_root "${header}")
    set(problem "")
    if(header_folder STREQUAL "")
      if(EXISTS ${SOURCE_DIR}/${folder}/${header})
        set(problem "write \"${folder}/${header}\": project headers are named from the root")
      endif()
    elseif(NOT header_root IN_LIST project_roots)
      # Not a project header.
    elseif(header MATCHES "_internal\\.h$" AND NOT header_folder STREQUAL folder)
      set(problem "${header} is internal to ${header_folder}/")
    elseif(NOT header_folder IN_LIST allowed)
      string(REPLACE ";" ", " allowed_text "${allowed}")
      set(problem "${folder}/ (${owner}) may not include ${header}: it may include only ${allowed_text}")
    endif()
    if(problem)
      line_of(${file} "${header}\"" line_number)
      message("${file}:${line_number}: error: ${problem}")
      math(EXPR errors "${errors} + 1")
    endif()
  endforeach()
endforeach()

if(errors GREATER 0)
  message(FATAL_ERROR "${errors} include(s) against the module order (cmake/IdxmapModules.cmake)")
endif()
