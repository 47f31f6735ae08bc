// The JIT runner as a user meets it: a source compiles once (the second call finds the cached
// object), a different source is a different object, compiler errors come back with the
// compiler's words, and a missing symbol or compiler is a JitError naming it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "codegen/run/jit.h"
#include "tests/support/scratch.h"

namespace idxmap::codegen {
namespace {

namespace fs = std::filesystem;

JitOptions inScratchCache(const std::string& name) {
  JitOptions options;
  options.cacheDirectory = scratch::directory("idxmap_jit_" + name);
  options.flags = {"-std=c++20", "-O1", "-fPIC", "-shared"};
  return options;
}

size_t objects(const fs::path& directory) {
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(directory))
    count += entry.path().extension() == ".so";
  return count;
}

TEST(Jit, CompilesOnceAndCallsTheSymbol) {
  JitOptions options = inScratchCache("once");
  const std::string source = "extern \"C\" int idxmap_answer(int x) { return x * 2 + 1; }\n";
  std::shared_ptr<LoadedLibrary> first = compileAndLoad(source, options);
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(first->symbol("idxmap_answer"))(20), 41);
  fs::file_time_type written = fs::last_write_time(first->path());
  first.reset();
  std::shared_ptr<LoadedLibrary> second = compileAndLoad(source, options);
  EXPECT_EQ(fs::last_write_time(second->path()), written);  // found, not compiled again
  EXPECT_EQ(objects(options.cacheDirectory), 1u);
  compileAndLoad("extern \"C\" int idxmap_other() { return 7; }\n", options);
  EXPECT_EQ(objects(options.cacheDirectory), 2u);
}

TEST(Jit, ErrorsNameWhatWentWrong) {
  JitOptions options = inScratchCache("errors");
  try {
    compileAndLoad("extern \"C\" int broken( { return 0; }\n", options);
    FAIL() << "compiled";
  } catch (const JitError& error) {
    EXPECT_NE(std::string(error.what()).find("error"), std::string::npos) << error.what();
  }
  EXPECT_EQ(objects(options.cacheDirectory), 0u);  // no object left behind
  std::shared_ptr<LoadedLibrary> library = compileAndLoad("extern \"C\" void f() {}\n", options);
  try {
    library->symbol("idxmap_absent");
    FAIL() << "found";
  } catch (const JitError& error) {
    EXPECT_NE(std::string(error.what()).find("idxmap_absent"), std::string::npos);
  }
  setenv("IDXMAP_CXX", "/nonexistent/c++", 1);
  EXPECT_THROW(compileAndLoad("extern \"C\" void g() {}\n", options), JitError);
  unsetenv("IDXMAP_CXX");
}

// A kernel built for this machine (-march=native, nvcc's -arch=native) is cached under a name
// that says which machine: another one (a fake second identity through IDXMAP_JIT_MACHINE, as
// a home folder shared by two hosts would see) compiles its own object instead of loading this
// one; flags that name no machine keep one name everywhere.
TEST(Jit, ObjectsBuiltForThisMachineAreKeyedByIt) {
  JitOptions native = inScratchCache("machine");
  native.flags.push_back("-march=native");
  const std::string source = "extern \"C\" int idxmap_seven() { return 7; }\n";
  unsetenv("IDXMAP_JIT_MACHINE");
  const std::string here = jitMachine(native);
  EXPECT_FALSE(here.empty());
  EXPECT_EQ(jitMachine(native), here);  // the same machine, the same identity
  const std::string key = cacheKey("c++", native, source);
  compileAndLoad(source, native);
  setenv("IDXMAP_JIT_MACHINE", "another host", 1);
  EXPECT_EQ(jitMachine(native), "another host");
  EXPECT_NE(cacheKey("c++", native, source), key);
  auto other = compileAndLoad(source, native);
  EXPECT_EQ(reinterpret_cast<int (*)()>(other->symbol("idxmap_seven"))(), 7);
  EXPECT_EQ(objects(native.cacheDirectory), 2u);  // compiled again, not loaded
  JitOptions portable = inScratchCache("portable");
  EXPECT_EQ(jitMachine(portable), "");
  const std::string portableKey = cacheKey("c++", portable, source);
  unsetenv("IDXMAP_JIT_MACHINE");
  EXPECT_EQ(cacheKey("c++", portable, source), portableKey);
  // nvcc's -arch=native names the GPUs (here, why there is none), and the CPU is not part of it.
  JitOptions cuda = cudaJitOptions();
  EXPECT_FALSE(jitMachine(cuda).empty());
  EXPECT_EQ(jitMachine(cuda).find("flags"), std::string::npos);
}

}  // namespace
}  // namespace idxmap::codegen
