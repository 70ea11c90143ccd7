import ArgumentParser
import CLIKit
import Chat
import Kernel

/// `messageai receipts CHAT`, `messageai receipts --private | --share`
struct ReceiptsCommand: FeatureCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipts", abstract: "Show how far the others have read a conversation, or keep your read receipts private.",
        discussion: """
            With CHAT, one line per other member who shares their receipts: the last message they have read. --private \
            keeps yours private (others no longer see how far you read, and you see no one's); --share shares them again.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Conversation id, title or person's name.") var chat: String?
    @Flag(help: "Keep your read receipts private.") var `private` = false
    @Flag(help: "Share your read receipts again.") var share = false

    func validate() throws {
        guard [chat != nil, `private`, share].count(where: \.self) == 1 else {
            throw ValidationError("give CHAT, --private or --share (one of them)")
        }
    }

    func run(in context: CLIContext) async throws {
        guard let chat else {
            let model = try context.factory(ChatFactory.self).makeReceiptPrivacyViewModel()
            await model.set(private: `private`)
            _ = try context.require(model.state)
            return try context.emit(["private": `private`], text: [`private` ? "Your read receipts are private." : "Your read receipts are shared."])
        }
        let id = try await context.lookup.conversationID(for: chat)
        let model = try context.factory(ChatFactory.self).makeChatViewModel(conversationID: id)
        await model.loadReceipts()
        let receipts = try context.require(model.receipts)
        let names = context.json ? [:] : try await context.lookup.displayNames(of: receipts.map(\.userID))
        try context.emitEach(
            receipts.map(JSONRow.init),
            text: receipts.isEmpty
                ? ["No read receipts to show."]
                : receipts.map { receipt in
                    TerminalText.line(names[receipt.userID] ?? receipt.userID.rawValue) + ": "
                        + (receipt.lastRead.map { "read up to message \($0) (\(receipt.readCount) read)" } ?? "has read nothing yet")
                })
    }

    /// A receipt's JSON row.
    struct JSONRow: Encodable {
        let userId: String
        let readCount: Int
        let lastReadId: String?

        init(_ receipt: ReadReceipt) {
            userId = receipt.userID.rawValue
            readCount = receipt.readCount
            lastReadId = receipt.lastRead?.rawValue
        }
    }
}
