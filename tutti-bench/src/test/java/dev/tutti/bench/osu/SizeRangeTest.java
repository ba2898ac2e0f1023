package dev.tutti.bench.osu;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SizeRangeTest {

    @Test
    void shouldListPowersOfTwoFromMinToMax() {
        assertArrayEquals(new int[] {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096},
            SizeRange.parse("1:4096").sizes());
    }

    @Test
    void shouldTreatSingleNumberAsMaxFromDefaultMin() {
        assertEquals(new SizeRange(1, 64), SizeRange.parse("64"));
        assertArrayEquals(new int[] {1, 2, 4, 8, 16, 32, 64}, SizeRange.parse("64").sizes());
    }

    @Test
    void shouldKeepDefaultMaxWhenOnlyMinGiven() {
        assertEquals(new SizeRange(1024, SizeRange.DEFAULT_MAX_BYTES), SizeRange.parse("1024:"));
    }

    @Test
    void shouldFollowZeroWithOneAsOsuDoes() {
        assertArrayEquals(new int[] {0, 1, 2, 4}, SizeRange.parse("0:4").sizes());
        assertArrayEquals(new int[] {0}, SizeRange.parse("0").sizes());
    }

    @Test
    void shouldDoubleFromNonPowerOfTwoMinAndStopAtMax() {
        assertArrayEquals(new int[] {3, 6, 12}, SizeRange.parse("3:20").sizes());
    }

    @Test
    void shouldDefaultToOneByteUpToFourMiB() {
        final int[] s = SizeRange.DEFAULT.sizes();
        assertEquals(23, s.length);
        assertEquals(1, s[0]);
        assertEquals(4_194_304, s[s.length - 1]);
        assertEquals(SizeRange.DEFAULT, SizeRange.parse("1:4194304"));
        assertEquals("1:4194304", SizeRange.DEFAULT.toString());
    }

    @Test
    void shouldReachLimitWithoutOverflow() {
        final int[] s = new SizeRange(1 << 29, SizeRange.LIMIT_BYTES).sizes();
        assertArrayEquals(new int[] {1 << 29, 1 << 30}, s);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "a", "1:b", "5:4", "-1:4", "1:2:3", "2147483648"})
    void shouldRejectMalformedOrInvertedRanges(final String text) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SizeRange.parse(text));
        assertTrue(e.getMessage().startsWith("-m "), e.getMessage());
    }

    @Test
    void shouldRejectSizesAboveLimit() {
        assertThrows(IllegalArgumentException.class, () -> new SizeRange(1, SizeRange.LIMIT_BYTES + 1));
    }
}
