import Foundation
import TestSupport
import Testing

@testable import REPLKit

/// The README's bounds on what `messageai` reads: `send -` takes at most 16,002 bytes and reads
/// no further; a REPL history file is read up to 4 MiB, and a larger one is left alone.
@Suite("Input bounds", .timeLimit(.minutes(1)))
struct InputBoundsTests {
    @Test("send - with 1 MB waiting reads one byte past 16,002 and sends nothing; 16,002 bytes (16,000 and a line break) are sent")
    func sendFromStandardInput() async throws {
        let machine = LocalMachine("stdin")
        defer { machine.remove() }
        for name in ["ada", "bob"] {
            #expect(
                try await machine.run(
                    ["--profile", name, "signup", "--email", "\(name)@example.com", "--name", name, "--password-stdin"],
                    input: "password-\(name)\n"
                ).status == 0)
        }
        #expect(try await machine.run(["--profile", "ada", "chats", "new", "bob@example.com"]).status == 0)

        // Standard input is a file of the test's: after the process ends, the file's offset,
        // shared with the child, says how much it read.
        let input = machine.folder.appendingPathComponent("input")
        for (bytes, expected) in [(1_000_000, Int32(65)), (16_002, 0)] {
            let text = bytes == 16_002 ? RandomText.dense(bytes: 16_000) + "\r\n" : String(repeating: "a", count: bytes)
            try Data(text.utf8).write(to: input)
            let handle = try FileHandle(forReadingFrom: input)
            defer { try? handle.close() }
            let process = try machine.process(["--profile", "ada", "send", "bob", "-"])
            process.standardInput = handle
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let status = await process.ended()
            let read = lseek(handle.fileDescriptor, 0, SEEK_CUR)
            #expect(status == expected, "\(bytes) bytes: exit \(status)")
            #expect(read <= 16_003, "\(bytes) bytes waiting: \(read) read")
        }
        let history = try await machine.run(["--profile", "ada", "history", "bob", "--json"])
        #expect(history.output.components(separatedBy: "\"text\"").count == 2, "one message stored: \(history.output.prefix(200))")
    }

    @Test("a history file of 4 MiB is read; one byte more leaves the REPL without history and the file untouched")
    @MainActor
    func historyFileBound() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (bytes, loaded) in [(History.maxBytes, true), (History.maxBytes + 1, false)] {
            let file = folder.appendingPathComponent("history-\(bytes)")
            let last = "the newest line"
            let filler = String(repeating: "x", count: bytes - last.utf8.count - 2)
            try Data((filler + "\n" + last + "\n").utf8).write(to: file)
            let history = History(file: file)
            #expect((history.previous(current: "") == last) == loaded, "\(bytes) bytes")
            history.add("typed now")
            let kept = try Data(contentsOf: file)
            #expect((kept.count == bytes) != loaded, "\(bytes) bytes: the file is \(kept.count) bytes after a line was typed")
        }
    }
}
