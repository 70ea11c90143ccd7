import Chat
import Kernel
import Testing

@Suite("Read receipts' rules")
struct ReceiptRulesTests {
    let ada = UserID("u-ada"), grace = UserID("u-grace"), bob = UserID("u-bob"), eve = UserID("u-eve")

    func receipt(_ user: UserID) -> ReadReceipt { ReadReceipt(userID: user, readCount: 1, lastRead: MessageID("m1")) }

    @Test("a reader sees the others' receipts, not their own, nor those kept private or of someone apart; none when they keep theirs private")
    func shown() {
        let all = [ada, bob, eve, grace].map(receipt)
        #expect(ChatRules.receiptsShown(all, to: ada, keepingPrivate: [], apart: []).map(\.userID) == [bob, eve, grace])
        #expect(ChatRules.receiptsShown(all, to: ada, keepingPrivate: [bob], apart: [eve]).map(\.userID) == [grace])
        #expect(ChatRules.receiptsShown(all, to: ada, keepingPrivate: [ada], apart: []).isEmpty)
    }

    @Test("whom a moved marker reaches mirrors whose receipts a reader sees: both ways, or the reader alone")
    func audienceMirrorsShown() {
        let members = [ada, bob, eve, grace]
        for (keeping, apart) in [(Set<UserID>(), Set<UserID>()), ([bob], [eve]), ([ada], [])] {
            let audience = Set(ChatRules.receiptAudience(of: ada, members: members, keepingPrivate: keeping, apart: apart)).subtracting([ada])
            let shown = Set(ChatRules.receiptsShown(members.map(receipt), to: ada, keepingPrivate: keeping, apart: apart).map(\.userID))
            #expect(audience == shown, "keeping \(keeping), apart \(apart)")
        }
    }
}
