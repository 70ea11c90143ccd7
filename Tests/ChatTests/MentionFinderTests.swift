import Chat
import Kernel
import Testing

@Suite("Mentions found at send")
struct MentionFinderTests {
    let ada = UserID("u-ada"), grace = UserID("u-grace"), kelly = UserID("u-kelly"), alan = UserID("u-alan"), zoe = UserID("u-zoe")
    var names: [UserID: String] { [grace: "Grace Hopper", kelly: "Grace Kelly", alan: "Alan Turing", zoe: "Zoë"] }

    func found(_ text: String) -> [UserID] { MentionFinder.mentions(in: text, among: names) }

    @Test("a full name whatever its case, accents and width; a first name only when no other member's starts with it")
    func byName() {
        #expect(found("@grace hopper, see this") == [grace])
        #expect(found("@GRACE KELLY!") == [kelly])
        #expect(found("@Alan thanks") == [alan], "Alan's first name is his alone")
        #expect(found("@Grace hello").isEmpty, "two Graces: a first name names neither")
        #expect(found("@zoe and @Ｚｏë") == [zoe], "accents and width folded; each person once")
        #expect(found("@Alan Turing and @Grace Hopper") == [alan, grace], "in the order named")
    }

    @Test("not inside a word, not a longer word, not someone who is not among the names")
    func boundaries() {
        #expect(found("mail alan@turing.org").isEmpty, "an email address mentions nobody")
        #expect(found("@Alanna").isEmpty, "a name must end where a word ends")
        #expect(found("@Eve hi").isEmpty)
        #expect(found("@").isEmpty && found("@@@@").isEmpty && found("").isEmpty)
        #expect(found("(@alan)") == [alan], "punctuation around a mention")
    }

    @Test("one message mentions at most Validation.maxMentions (20) people, the first named")
    func bounded() {
        let many = Dictionary(uniqueKeysWithValues: (1...30).map { (UserID("u-\($0)"), "Person\($0)") })
        let text = (1...30).map { "@Person\($0)" }.joined(separator: " ")
        #expect(MentionFinder.mentions(in: text, among: many) == (1...20).map { UserID("u-\($0)") })
    }

    @Test("a name two members share mentions both; a first name is read against every member's, those who cannot be mentioned included")
    func sharedNames() async throws {
        #expect(MentionFinder.mentions(in: "@Grace Hopper", among: [grace: "Grace Hopper", kelly: "Grace Hopper"]) == [grace, kelly])
        let membership = BlockingMembership(blocked: [ada: [kelly]])
        let finder = MentionFinder(membership: membership, names: FixedNames(names: names.merging([ada: "Ada"]) { $1 }))
        #expect(
            try await finder.mentions(in: "@Grace, look", by: ada, members: [ada, grace, kelly]).isEmpty,
            "two Graces are members: blocking one does not make @Grace the other")
        #expect(
            try await finder.mentions(in: "@Grace, look", by: kelly, members: [ada, grace, kelly]).isEmpty,
            "nor does being one of them")
    }

    @Test("the sender, people apart from the sender by a block and non-members are never mentioned; a text without @ asks nothing")
    func audience() async throws {
        let membership = BlockingMembership(blocked: [ada: [alan]])
        let finder = MentionFinder(membership: membership, names: FixedNames(names: names.merging([ada: "Ada"]) { $1 }))
        let members = [ada, grace, alan]
        #expect(
            try await finder.mentions(in: "@Ada @Grace Hopper @Alan @Grace Kelly", by: ada, members: members) == [grace],
            "not herself, not Alan whom she blocked, not Grace Kelly who is not a member")
        #expect(try await finder.mentions(in: "@Ada", by: alan, members: members).isEmpty, "nor Ada, who blocked Alan, by him")
        #expect(try await finder.mentions(in: "hello everyone", by: ada, members: members).isEmpty)
        #expect(membership.asked.withLock { $0 } == 2, "the blocks were asked for the two texts with @ only")
    }
}
