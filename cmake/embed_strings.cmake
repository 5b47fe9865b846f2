# embed_strings(VAR DIR NAMES DELIM): appends to VAR one C++ initializer per file, {"name", R"DELIM(text)DELIM"},
# for the files NAMES relative to DIR (embed_headers.cmake, embed_page.cmake).
function(embed_strings var dir names delim)
  set(text "${${var}}")
  foreach(name IN LISTS names)
    file(READ ${dir}/${name} body)
    string(APPEND text "      {\"${name}\", R\"${delim}(${body})${delim}\"},\n")
  endforeach()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
