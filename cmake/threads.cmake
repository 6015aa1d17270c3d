# POSIX threads for the thread pool (src/parallel, docs/threading.md). Included from the top
# CMakeLists.txt after the library targets are defined. The shared library links libpthread
# itself; the static one and the object library pass it on to whatever links them, and the
# installed package config and pkg-config file declare it for consumers of the static library.
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
target_link_libraries(contactsim_obj PUBLIC Threads::Threads)
target_link_libraries(contactsim PRIVATE Threads::Threads)
target_link_libraries(contactsim_static PUBLIC Threads::Threads)
