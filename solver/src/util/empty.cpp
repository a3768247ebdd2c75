// Lets a library whose concept folders are still empty build (CMake needs one source).
