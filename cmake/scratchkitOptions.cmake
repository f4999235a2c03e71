# SPDX-License-Identifier: BSD-3-Clause
#
# Configure-time checks of what a user passes with -D.
#
#  scratchkit_check_bools(<var>...)
#    Every <var> that is defined must hold one of CMake's boolean constants
#    ON/OFF, TRUE/FALSE, YES/NO, 1/0 (any case); otherwise configuring stops
#    with one error naming each such option and its value. Called before the
#    options are read: if() takes any other string as true (so "perhaps" would
#    be ON), and a message built from the option would then say "=ON".
#
#  scratchkit_check_cxx_standard(<minimum> <why>)
#    CMAKE_CXX_STANDARD below <minimum> stops configuring (the compile
#    features of Kokkos and of the library would otherwise raise it behind
#    the user's back, while the summary printed the value asked for).
#
#  scratchkit_opt_flag(<out> <flags>)
#    The last -O flag in <flags> (the one the compiler takes), or "-O0 (no -O flag)".

include_guard(GLOBAL)

function(scratchkit_check_bools)
  set(_bad)
  foreach(_v IN LISTS ARGN)
    if(DEFINED ${_v})
      string(TOUPPER "${${_v}}" _u)
      if(NOT _u MATCHES "^(ON|OFF|TRUE|FALSE|YES|NO|1|0)$")
        list(APPEND _bad "  ${_v}=${${_v}}")
      endif()
    endif()
  endforeach()
  if(_bad)
    list(JOIN _bad "\n" _lines)
    message(FATAL_ERROR "not a boolean value:\n${_lines}\n"
                        "Accepted: ON/OFF, TRUE/FALSE, YES/NO, 1/0 (any case). "
                        "Pass, e.g., -DSCRATCHKIT_ENABLE_TESTS=OFF.")
  endif()
endfunction()

function(scratchkit_check_cxx_standard minimum why)
  if(NOT DEFINED CMAKE_CXX_STANDARD)
    return()
  endif()
  set(_s "${CMAKE_CXX_STANDARD}")
  if(NOT _s MATCHES "^(98|11|14|17|20|23|26)$")
    message(FATAL_ERROR "CMAKE_CXX_STANDARD=${_s}: not a C++ standard CMake knows (98, 11, 14, 17, 20, 23, 26)")
  endif()
  if(_s EQUAL 98 OR _s LESS minimum)
    message(FATAL_ERROR "CMAKE_CXX_STANDARD=${_s} is below C++${minimum}, which ${why}. "
                        "Pass -DCMAKE_CXX_STANDARD=${minimum} (or higher), or leave it unset for ${minimum}.")
  endif()
endfunction()

function(scratchkit_opt_flag out flags)
  string(REGEX MATCHALL "-O[0-9a-z]*" _all " ${flags}")
  if(_all)
    list(GET _all -1 _last)
    set(${out} "${_last}" PARENT_SCOPE)
  else()
    set(${out} "-O0 (no -O flag)" PARENT_SCOPE)
  endif()
endfunction()
