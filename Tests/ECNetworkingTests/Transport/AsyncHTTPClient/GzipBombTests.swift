import Foundation
import Testing

@Suite("GzipBomb copies GzipFixture's deflate stream")
struct GzipBombTests {
    @Test("its bytes are the fixture's own, up to where the fixture's stream ends")
    func matchesFixture() {
        let periods = 100
        let fixture = GzipFixture.repeating(0x63, matchCount: 8 * periods).compressed
        let bomb = GzipBomb.body(periods: periods)

        // The fixture ends with a byte that mixes the last match with the end-of-block code, then
        // the 8-byte checksum and size; the bomb goes on with matches where it ends.
        #expect(bomb.count == 10 + 2 + 13 * periods)
        #expect(fixture.count == bomb.count + 1 + 8)
        #expect(bomb.prefix(bomb.count - 1) == fixture.prefix(bomb.count - 1))
        #expect(bomb.last != fixture[fixture.count - 10])
    }
}
