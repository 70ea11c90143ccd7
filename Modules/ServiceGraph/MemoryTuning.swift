#if canImport(Glibc)
    import Glibc
#endif

/// How MessageAI's processes (`messageai`, `messageai-server`, the benchmarks) ask glibc's
/// allocator to keep freed memory. By default glibc serves allocations of 128 KiB and more with
/// their own `mmap` and gives trimmed memory back to the kernel, so buffers (a request's, SQLite's
/// page cache in a worker thread's arena) are mapped, faulted in and unmapped again: the kernel's
/// page faults cost the server a good part of its throughput and a local send a quarter of its
/// time (docs/performance.md). Keeping it costs resident memory the process would reuse anyway.
public enum MemoryTuning {
    /// Raises the `mmap` threshold to 4 MiB and the trim threshold to 256 MiB; does nothing
    /// where the C library is not glibc. Call once, at the start of the process.
    public static func keepFreedMemory() {
        #if canImport(Glibc)
            // `mallopt` and its M_* macros are not in Swift's Glibc module: found by name, with
            // glibc's values M_TRIM_THRESHOLD (-1) and M_MMAP_THRESHOLD (-3).
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(-1, 256 << 20)
            _ = mallopt(-3, 4 << 20)
        #endif
    }
}
