/// The users of one server, kept in memory.
actor UserStore {
    private var usersByID: [Int: User]
    private var nextID: Int

    init(users: [User]) {
        usersByID = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        nextID = (users.map(\.id).max() ?? 0) + 1
    }

    /// The users ordered by identifier, optionally only those whose `online` matches.
    func users(online: Bool?) -> [User] {
        usersByID.values
            .filter { online == nil || $0.online == online }
            .sorted { $0.id < $1.id }
    }

    func user(id: Int) -> User? {
        usersByID[id]
    }

    func create(_ newUser: NewUser) -> User {
        let user = User(id: nextID, name: newUser.name, email: newUser.email, online: false)
        nextID += 1
        usersByID[user.id] = user
        return user
    }

    /// Removes the user; returns whether it existed.
    func delete(id: Int) -> Bool {
        usersByID.removeValue(forKey: id) != nil
    }
}
