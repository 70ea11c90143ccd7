import Foundation
import Kernel
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Low-priority work", .timeLimit(.minutes(1)))
struct LowPriorityWorkTests {
    @Test("work runs on a thread of nice 10, and its result or error comes back to the caller")
    func niceThreads() async throws {
        #if os(Linux)
            let nice = try await LowPriorityWork.shared.run {
                var link = [CChar](repeating: 0, count: 64)
                _ = readlink("/proc/thread-self", &link, link.count - 1)
                let thread = id_t(String(cString: link).split(separator: "/").last ?? "") ?? 0
                return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread)
            }
            #expect(nice == 10)
        #endif
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 { group.addTask { try await LowPriorityWork.shared.run { (0...index).reduce(0, +) } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sums.sorted() == (0..<20).map { (0...$0).reduce(0, +) }.sorted())
        await #expect(throws: AppError(.invalidInput, "no")) { try await LowPriorityWork.shared.run { throw AppError(.invalidInput, "no") } }
    }
}
