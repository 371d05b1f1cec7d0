# Compile data/ratings/NAME.tsv (in name order) into ww_model as one C string
# (ww_builtin_ratings_tsv), so the service needs no data path at run time; the
# tables stay data. Each file starts with a "#@ NAME" line: the parser names
# rows by their own file and line (ww_ratings_parse).
file(GLOB _tsvs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/data/ratings/*.tsv)
list(SORT _tsvs)
set(_gen ${CMAKE_BINARY_DIR}/generated/builtin_ratings.c)
add_custom_command(OUTPUT ${_gen}
  COMMAND ${CMAKE_COMMAND} "-DIN=${_tsvs}" -DOUT=${_gen} -DMARK=ON -P ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake
  DEPENDS ${_tsvs} ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake VERBATIM)
target_sources(ww_model PRIVATE ${_gen})
install(FILES ${_tsvs} DESTINATION share/wearwatch/ratings)
