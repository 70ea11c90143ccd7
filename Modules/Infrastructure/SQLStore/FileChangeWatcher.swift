#if canImport(Glibc)
    import Glibc
    import Foundation
    import Synchronization

    /// Wakes when files of one folder are written or removed, through Linux's inotify (during a burst of
    /// writes, at most once a millisecond); once more `settle` after the last write of a burst (a
    /// write is seen a moment before what it completes, such as a commit, is visible to readers);
    /// and every `idleWake`, so that a reader never waits forever on an event it could have missed.
    /// A thread of its own blocks in `poll`, so waiting costs no CPU.
    final class FileChangeWatcher: Sendable {
        /// One value per wake-up; wake-ups that arrive while the reader is busy are coalesced.
        let wakes: AsyncStream<Void>
        private let stopWriter: Int32
        private let stopped = Mutex(false)

        /// Starts watching `names` in `folder` (every file when `nil`); `nil` when inotify is unavailable.
        init?(folder: String, names: Set<String>?, settle: Duration, idleWake: Duration) {
            let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard inotify >= 0 else { return nil }
            let mask = UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_DELETE)
            var stop: [Int32] = [0, 0]
            guard inotify_add_watch(inotify, folder, mask) >= 0, pipe(&stop) == 0 else {
                close(inotify)
                return nil
            }
            stop.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
            stopWriter = stop[1]
            let (wakes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            self.wakes = wakes
            let stopReader = stop[0]
            let (settleMs, idleMs) = (Self.milliseconds(settle), Self.milliseconds(idleWake))
            let thread = Thread {
                Self.watch(inotify, stop: stopReader, names: names, settle: settleMs, idle: idleMs, continuation)
                close(inotify)
                close(stopReader)
                continuation.finish()
            }
            thread.name = "messageai.file-watcher"
            thread.start()
        }

        deinit { stopNow() }

        /// Ends the watching thread and the `wakes` stream (once; later calls do nothing).
        func stopNow() {
            guard
                stopped.withLock({ was in
                    defer { was = true }
                    return !was
                })
            else { return }
            var byte: UInt8 = 1
            _ = write(stopWriter, &byte, 1)
            close(stopWriter)
        }

        private static func watch(
            _ inotify: Int32, stop: Int32, names: Set<String>?, settle: Int32, idle: Int32,
            _ continuation: AsyncStream<Void>.Continuation
        ) {
            var buffer = [UInt8](repeating: 0, count: 8_192)
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            var settling = false
            while true {
                let ready = poll(&descriptors, 2, settling ? settle : idle)
                if ready < 0, errno == EINTR { continue }
                guard ready >= 0, descriptors[1].revents == 0 else { return }
                if ready == 0 {
                    settling = false
                    continuation.yield()
                    continue
                }
                var matched = false
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                    guard count > 0 else { break }
                    matched = matched || Self.names(in: buffer[..<count]).contains { names?.contains($0) ?? true }
                }
                if matched {
                    settling = true
                    continuation.yield()
                    // A commit writes dozens of pages, each an event: the rest of a burst is read a
                    // moment later, in one go, rather than waking this thread and the monitor for each.
                    usleep(Self.burstPause)
                }
            }
        }

        /// Microseconds the thread waits after a wake before reading more events.
        private static let burstPause: UInt32 = 1_000

        private static func milliseconds(_ duration: Duration) -> Int32 {
            Int32(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
        }

        /// The file names of the inotify events in `bytes`.
        private static func names(in bytes: ArraySlice<UInt8>) -> [String] {
            let header = MemoryLayout<inotify_event>.size
            var names: [String] = []
            var offset = bytes.startIndex
            while offset + header <= bytes.endIndex {
                let length = bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
                let name = bytes[(offset + header)..<min(offset + header + length, bytes.endIndex)].prefix { $0 != 0 }
                names.append(String(decoding: name, as: UTF8.self))
                offset += header + length
            }
            return names
        }
    }
#endif
