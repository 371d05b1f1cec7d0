# Compile data/drive-ratings.tsv into ww_model as a C string (ww_builtin_ratings_tsv),
# so the service needs no data path at run time; the table stays data.
set(_tsv ${CMAKE_SOURCE_DIR}/data/drive-ratings.tsv)
set(_gen ${CMAKE_BINARY_DIR}/generated/builtin_ratings.c)
add_custom_command(OUTPUT ${_gen}
  COMMAND ${CMAKE_COMMAND} -DIN=${_tsv} -DOUT=${_gen} -P ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake
  DEPENDS ${_tsv} ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake VERBATIM)
target_sources(ww_model PRIVATE ${_gen})
install(FILES ${_tsv} DESTINATION share/wearwatch)
