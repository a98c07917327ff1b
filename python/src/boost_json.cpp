// Boost.JSON compiled into the module from its header-only form, for the module's code and
// for tracediff_lib's objects: the module then needs no libboost_json.so on the machine it
// is installed on, and Debian's libboost_json.a (not built for a shared object) is not
// linked (python/CMakeLists.txt). Once in the module: one translation unit includes it.
#include <boost/json/src.hpp>
