# Compiles files (templates, CSS, JS, Chart.js) into the library as byte arrays, so
# the installed binary needs nothing beside it at run time. Look-up by base name:
#   tracediff::embedded_file("report.css")
function(embed_files target)
  set(out ${CMAKE_BINARY_DIR}/embedded_files.cpp)
  # A list would split into several arguments; pass it "|"-separated.
  string(REPLACE ";" "|" files "${ARGN}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${files}" -P ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake
    DEPENDS ${ARGN} ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake
    COMMENT "Embedding templates and assets"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
