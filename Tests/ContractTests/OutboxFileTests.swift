import AppContainer
import Chat
import Foundation
import Kernel
import Testing

/// The outbox file is shared by every REPL of a profile and server: what one keeps, another
/// never writes over.
@Suite("Outbox file", .timeLimit(.minutes(1)))
struct OutboxFileTests {
    @Test("two outboxes over one file keeping messages at once: the file ends with all of them")
    func twoWritersLoseNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ada-remote-localhost_1.json")
        let ada = UserID("ada")
        let first = Outbox(store: FileOutboxStore(file: file), owner: ada), second = Outbox(store: FileOutboxStore(file: file), owner: ada)
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<60 {
                group.addTask {
                    let text = "m\(index)"
                    _ = try await (index.isMultiple(of: 2) ? first : second).keep(id: .random(), text: text, in: ConversationID("c1"))
                    return text
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(Set(try await first.messages().map(\.text)) == texts)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
    }
}
