import Auth
import Chat
import ConversationList
import Files
import Foundation
import Kernel
import Profile

/// The memory backend's seeded world: the demo user Ada, two mock users who answer, and three
/// conversations with some history. Every account's password is `password123`.
enum MockData {
    /// bcrypt (cost 10) of `password123`, so that seeding costs no hashing time.
    private static let passwordHash = "$2b$10$VmFKVp0qnFgdq8A8Jst2d.E6yKg0zkjseS0MtBVYrwMj5kJ8fxmcG"

    static let ada = Profile(id: demoAccount.id, email: demoAccount.email, displayName: "Ada Lovelace", status: "Analysing engines")
    static let grace = Profile(id: UserID("u-grace"), email: "grace@example.com", displayName: "Grace Hopper", status: "Debugging")
    static let alan = Profile(id: UserID("u-alan"), email: "alan@example.com", displayName: "Alan Turing")

    static let profiles = [ada, grace, alan]
    /// Users that answer messages (everyone but the demo user).
    static let peers: Set<UserID> = [grace.id, alan.id]
    static let replies = [
        "Interesting! Tell me more.",
        "Ha, I was just thinking the same.",
        "Let me check and get back to you.",
        "Sounds good to me 👍",
    ]

    static var accounts: [StoredAccount] {
        profiles.compactMap { profile in
            profile.email.map { StoredAccount(account: Account(id: profile.id, email: $0), passwordHash: passwordHash) }
        }
    }

    /// The demo user's account, signed in when Auth is not among the enabled features.
    static let demoAccount = Account(id: UserID("u-ada"), email: "ada@example.com")

    static func conversations(now: Date) -> [Conversation] {
        [
            Conversation(id: ConversationID("c-grace"), title: nil, memberIDs: [ada.id, grace.id], createdAt: now - 86_400 * 3),
            Conversation(id: ConversationID("c-alan"), title: nil, memberIDs: [ada.id, alan.id], createdAt: now - 86_400 * 2),
            Conversation(
                id: ConversationID("c-engine"), title: "Engine room", memberIDs: [ada.id, grace.id, alan.id],
                createdAt: now - 86_400),
        ]
    }

    static func messages(now: Date) -> [Message] {
        let script: [(ConversationID, Profile, String, TimeInterval)] = [
            (ConversationID("c-grace"), grace, "Found a moth in relay 70 🦋", 7_200),
            (ConversationID("c-grace"), ada, "The first actual bug!", 7_100),
            (ConversationID("c-grace"), grace, "Taping it into the logbook.", 7_000),
            (ConversationID("c-alan"), alan, "Can machines think?", 5_400),
            (ConversationID("c-alan"), ada, "Only what we order them to perform.", 5_300),
            (ConversationID("c-engine"), ada, "Welcome to the engine room.", 3_600),
            (ConversationID("c-engine"), grace, "@Ada can you check the Bombe's wiring?", 1_800),
            (ConversationID("c-engine"), alan, "Bombe is humming along.", 600),
        ]
        var messages = script.enumerated().map { index, line in
            // Whom it mentions, found as a send finds them (every mock user is in the engine room).
            let others = Dictionary(uniqueKeysWithValues: profiles.filter { $0.id != line.1.id }.map { ($0.id, $0.displayName) })
            return Message(
                id: MessageID("m-seed-\(index + 1)"), conversationID: line.0, senderID: line.1.id, text: line.2,
                sentAt: now - line.3, mentions: MentionFinder.mentions(in: line.2, among: others))
        }
        // Grace's logbook page and picture of the moth, after her third message.
        let logbook = files(now: now).map { shared in
            Attachment(
                id: shared.file.id, name: shared.file.name, mediaType: shared.file.mediaType, size: shared.file.size, sha256: shared.file.sha256)
        }
        messages.insert(
            Message(
                id: MessageID("m-seed-logbook"), conversationID: ConversationID("c-grace"), senderID: grace.id,
                text: "The logbook page and the moth, for the record.", sentAt: now - 6_900, attachments: logbook), at: 3)
        return messages
    }

    /// The files the seeded messages carry, with their bytes: Grace's logbook page, and her
    /// picture of the moth (a PNG the full-screen UI draws where the terminal can).
    static func files(now: Date) -> [(file: SharedFile, bytes: [UInt8])] {
        let page = Array("9/9 1545  Relay #70 Panel F (moth) in relay.\nFirst actual case of bug being found.\n".utf8)
        let moth = Array(Data(base64Encoded: mothPicture, options: .ignoreUnknownCharacters) ?? Data())
        return [(0, "f-seed-logbook", "logbook.txt", "text/plain", page), (1, "f-seed-moth", "moth.png", "image/png", moth)].map {
            position, id, name, type, bytes in
            var digest = SHA256FileDigest()
            digest.update(bytes)
            let file = SharedFile(
                id: FileID(id), conversationID: ConversationID("c-grace"), messageID: MessageID("m-seed-logbook"), position: position,
                ownerID: grace.id, name: name, mediaType: type, size: Int64(bytes.count), sha256: digest.hex(), createdAt: now - 6_900)
            return (file, bytes)
        }
    }

    /// The moth, 256 × 192 pixels of pixel art, as a PNG file in base64.
    private static let mothPicture = """
        iVBORw0KGgoAAAANSUhEUgAAAQAAAADACAIAAABkjyoxAAADRUlEQVR42u3dsQ3CQAxAUXahpqFmEiZhEsahZg0aahp6ClqQQJyxnXvS78nZeVUUsrrfLtK0
        rYxAAEgASABIAEgASABIAEgASABIAEgASABIAEgASAC0aLdZv8wc5pwDAAAAYPEAAGDx5gCAxZsDABZvDgBYvDkAYPHmAIAbwrkAAMC5AADAuQAAwLkAAMC5
        AADAuQAAwLkAAMC5AADDdQIAgOsEAADXCQAArhMAAFwnAAC4TgAAcJ0AAAAAAM8O+22putxwo363+/wBAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPgvgFGD
        OB33oUUv7N0NOirzHwsGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIDfBh090GoLiwZg/mNhAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADwGYBRB76eD0PK
        WkwWgOjzVtsLAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAC1AYwaaLUFdAfQZS8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAHgQ5kGYB2EAAAAAAAAAAAAA
        AAAAAAAAAAAAAAAAAAAAAPhjLAD8MRYAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAMv4ULYPZPSapy/FAwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAANQAkAUm
        evHfLiAaQNaLStH7yroPAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACoDaPaixfVAHSZGwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAcz8Iy3pR49tzZQHI
        ekDWHQYAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAHPc6LMBAAMAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgEgASx10NQCzPYgEAAAAAAAAAAAAAAAAAAAA
        AAAAAAAAAAAAAGBZD8K6vHiRdaPbFwAA2BcAANgXAADYFwAA2BcAANgXAADYFwAAANBh0N0/xNA9H8o2UAAAMFAAADBQAAAwUAAAMFAAADBQAAAwUAAAkLoF
        gACQAJAAkACQAJAAkACQAJAAkACQAJAAkACQAJAAkACQAJAAkACQAJAAkACQAJAAkACQAJAAkACQAJAAkP7UA76WrgefFW1uAAAAAElFTkSuQmCC
        """
}
