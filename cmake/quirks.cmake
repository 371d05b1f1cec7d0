# Compile data/attribute-quirks.tsv (attribute meanings smartmontools'
# drivedb.h lacks) into ww_collect as ww_builtin_attribute_quirks_tsv.
set(_qtsv ${CMAKE_SOURCE_DIR}/data/attribute-quirks.tsv)
set(_qgen ${CMAKE_BINARY_DIR}/generated/builtin_attribute_quirks.c)
add_custom_command(OUTPUT ${_qgen}
  COMMAND ${CMAKE_COMMAND} -DIN=${_qtsv} -DOUT=${_qgen} -DNAME=ww_builtin_attribute_quirks_tsv
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake
  DEPENDS ${_qtsv} ${CMAKE_SOURCE_DIR}/cmake/embed_text.cmake VERBATIM)
target_sources(ww_collect PRIVATE ${_qgen})
