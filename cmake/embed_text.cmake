# cmake -DIN=file -DOUT=file.c [-DNAME=var] -P embed_text.cmake: IN as a NUL-terminated char array
# (NAME defaults to ww_builtin_ratings_tsv).
if(NOT NAME)
  set(NAME ww_builtin_ratings_tsv)
endif()
file(READ ${IN} _hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _bytes "${_hex}")
file(WRITE ${OUT} "/* generated from ${IN} */\nconst char ${NAME}[] = {${_bytes}0x00};\n")
