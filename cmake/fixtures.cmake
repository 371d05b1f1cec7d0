# Where the real-drive fixtures are (../shared/fixtures, docs/testing.md):
# WW_FIXTURES from the environment of the first configure when it is set
# (the skip messages tell users to set it), else ../shared/fixtures beside
# the source tree. -DWW_FIXTURES=... wins over both, as for any cache entry.
function(ww_fixtures_default out src)
  if(DEFINED ENV{WW_FIXTURES} AND NOT "$ENV{WW_FIXTURES}" STREQUAL "")
    set(${out} "$ENV{WW_FIXTURES}" PARENT_SCOPE)
  else()
    set(${out} "${src}/../shared/fixtures" PARENT_SCOPE)
  endif()
endfunction()
