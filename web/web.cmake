# Dashboard assets (web/*) and Debian's Chart.js (libjs-chart.js), embedded
# into the binary at build time by cmake/embed_assets.cmake (xxd -i style
# arrays written by a CMake script, so the build needs no xxd and no network).
# The generated file joins the ww_web layer, which ww_daemon links.
find_file(WW_CHARTJS chart.min.js PATHS /usr/share/javascript/chart.js NO_DEFAULT_PATH)
if(NOT WW_CHARTJS)
  message(FATAL_ERROR "Chart.js not found in /usr/share/javascript/chart.js: "
                      "install libjs-chart.js (scripts/deps.sh build)")
endif()

set(_web ${CMAKE_SOURCE_DIR}/web)
set(WW_WEB_FILES
  /index.html=${_web}/index.html
  /assets/app.css=${_web}/app.css
  /assets/util.js=${_web}/util.js
  /assets/model.js=${_web}/model.js
  /assets/fields.js=${_web}/fields.js
  /assets/overview.js=${_web}/overview.js
  /assets/charts.js=${_web}/charts.js
  /assets/drive.js=${_web}/drive.js
  /assets/fleet.js=${_web}/fleet.js
  /assets/app.js=${_web}/app.js
  /assets/favicon.svg=${_web}/favicon.svg
  /assets/chart.min.js=${WW_CHARTJS})
set(_deps "")
foreach(_p IN LISTS WW_WEB_FILES)
  string(REGEX REPLACE "^[^=]*=" "" _f "${_p}")
  list(APPEND _deps "${_f}")
endforeach()
set(WW_WEB_C ${CMAKE_BINARY_DIR}/ww_web_assets.c)
string(REPLACE ";" "\n" _list "${WW_WEB_FILES}")
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/ww_web_assets.list CONTENT "${_list}\n")
add_custom_command(OUTPUT ${WW_WEB_C}
  COMMAND ${CMAKE_COMMAND} -DOUT=${WW_WEB_C} -DASSETS=${CMAKE_BINARY_DIR}/ww_web_assets.list
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
  DEPENDS ${_deps} ${CMAKE_BINARY_DIR}/ww_web_assets.list ${CMAKE_SOURCE_DIR}/cmake/embed_assets.cmake
  COMMENT "Embedding web assets and Chart.js"
  VERBATIM)
target_sources(ww_web PRIVATE ${WW_WEB_C})
