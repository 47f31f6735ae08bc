// The translation unit that builds idxmap_library_pch's precompiled header
// (cmake/IdxmapModules.cmake); it has no code of its own.
