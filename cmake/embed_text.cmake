# cmake -DIN=file -DOUT=file.c -P embed_text.cmake: IN as a NUL-terminated char array.
file(READ ${IN} _hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _bytes "${_hex}")
file(WRITE ${OUT} "/* generated from ${IN} */\nconst char ww_builtin_ratings_tsv[] = {${_bytes}0x00};\n")
