# Install rules: what an application needs to build against vkconv without its source tree.
#   lib/libvkconv.so*                        the library (only VKCONV_API symbols exported)
#   include/vkconv/*.hpp                     its headers (they include <vulkan/vulkan_core.h>)
#   lib/cmake/vkconv/                        find_package(vkconv) -> target vkconv::vkconv
#   lib/pkgconfig/vkconv.pc                  pkg-config --cflags --libs vkconv
#   bin/vkconv-info, bin/vkconv-bench        the tools (vkconv-bench reads share/vkconv/bench/suites and zoo)
#   share/vkconv/bench/                      the suites, the model zoo, device profiles, cuDNN / MIOpen baseline scripts
include(CMakePackageConfigHelpers)
set(_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/vkconv")

install(TARGETS vkconv EXPORT vkconvTargets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime NAMELINK_COMPONENT development
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT development
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/vkconv" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  COMPONENT development FILES_MATCHING PATTERN "*.hpp")
install(EXPORT vkconvTargets NAMESPACE vkconv:: DESTINATION "${_cmake_dir}" COMPONENT development)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/vkconvConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/generated/vkconvConfig.cmake" INSTALL_DESTINATION "${_cmake_dir}")
# 0.x: a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/generated/vkconvConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/generated/vkconvConfig.cmake" "${PROJECT_BINARY_DIR}/generated/vkconvConfigVersion.cmake"
  DESTINATION "${_cmake_dir}" COMPONENT development)
# pkg-config: the prefix relative to the .pc file, so that `cmake --install --prefix` anywhere works.
string(REGEX MATCHALL "[^/]+" _pc_parts "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
set(VKCONV_PC_UP "")
foreach(_part IN LISTS _pc_parts)
  string(APPEND VKCONV_PC_UP "../")
endforeach()
string(REGEX REPLACE "/$" "" VKCONV_PC_UP "${VKCONV_PC_UP}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/vkconv.pc.in" "${PROJECT_BINARY_DIR}/generated/vkconv.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/generated/vkconv.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig"
  COMPONENT development)

install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime)

if(VKCONV_BUILD_BENCH)
  # The tools find libvkconv next to themselves wherever the prefix is moved.
  set_target_properties(vkconv-info PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  install(TARGETS vkconv-info vkconv-bench RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT tools)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/bench/suites" DESTINATION "${CMAKE_INSTALL_DATADIR}/vkconv/bench"
    COMPONENT tools FILES_MATCHING PATTERN "*.csv")
  # The model zoo (vkconv-bench --zoo): one CSV per torchvision network, the listing that made
  # them, and the generator.
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/bench/zoo" DESTINATION "${CMAKE_INSTALL_DATADIR}/vkconv/bench"
    COMPONENT tools FILES_MATCHING PATTERN "*.csv" PATTERN "MODELS.txt" PATTERN "README.md")
  install(PROGRAMS "${PROJECT_SOURCE_DIR}/bench/zoo/make_zoo.py" DESTINATION "${CMAKE_INSTALL_DATADIR}/vkconv/bench/zoo"
    COMPONENT tools)
  install(PROGRAMS "${PROJECT_SOURCE_DIR}/bench/torch_baseline.py" "${PROJECT_SOURCE_DIR}/bench/report.py"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/vkconv/bench" COMPONENT tools)
  install(FILES "${PROJECT_SOURCE_DIR}/bench/benchjson.py" DESTINATION "${CMAKE_INSTALL_DATADIR}/vkconv/bench"
    COMPONENT tools)
  # Device records for planning offline (vkconv-bench --caps): what vkconv would run on those cards.
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/bench/profiles" DESTINATION "${CMAKE_INSTALL_DATADIR}/vkconv/bench"
    COMPONENT tools FILES_MATCHING PATTERN "*.json" PATTERN "README.md")
endif()
