# What a package holds besides the binary: the man page (gzipped, as Debian policy
# asks) and the bash completion; and the `cpack -G DEB` settings.
include(GNUInstallDirs)

set(TRACEDIFF_MAN_SOURCE ${CMAKE_SOURCE_DIR}/packaging/tracediff.1)
set(TRACEDIFF_MAN_GZ ${CMAKE_BINARY_DIR}/tracediff.1.gz)
# -n: no name or time stamp in the header, so the package is reproducible.
add_custom_command(OUTPUT ${TRACEDIFF_MAN_GZ}
  COMMAND gzip -9 -n -c ${TRACEDIFF_MAN_SOURCE} > ${TRACEDIFF_MAN_GZ}
  DEPENDS ${TRACEDIFF_MAN_SOURCE}
  COMMENT "Compressing the man page"
  VERBATIM)
add_custom_target(tracediff_man ALL DEPENDS ${TRACEDIFF_MAN_GZ})
install(FILES ${TRACEDIFF_MAN_GZ} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/tracediff.bash-completion
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME tracediff)

set(CPACK_PACKAGE_NAME tracediff)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Diff two sets of PyTorch profiler (Kineto) traces")
set(CPACK_PACKAGE_DESCRIPTION
    "Compares control and test sets of PyTorch profiler traces and reports which\n"
    "operators and GPU kernels were added, deleted, ran more or less often, and how\n"
    "much time each gained or lost, as HTML, CSV, JSON, Markdown and a terminal summary.")
set(CPACK_PACKAGE_CONTACT "tracediff maintainers <tracediff@invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # tracediff_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The libraries are linked in (TRACEDIFF_STATIC_DEPS), so the dependencies are glibc's
# (and ISA-L's when it is linked as a shared library): dpkg-shlibdeps reads them from
# the binary where it is installed (dpkg-dev); without it, they are stated here.
find_program(TRACEDIFF_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(TRACEDIFF_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(deps "libc6 (>= 2.31)")
  if(ISAL_LIBRARY AND NOT ISAL_LIBRARY MATCHES "\\.a$")
    string(APPEND deps ", libisal2")
  endif()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${deps}")
endif()
include(CPack)
