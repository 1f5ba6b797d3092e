/** Compressed bytes inflated per step on the pool: its output is still in cache when it is checked and written. */
export const STEP = 256 * 1024;

/**
 * Network chunks shorter than this are joined (copied) into steps of about STEP, in the lane's
 * buffer (ByteSource.borrow): a TLS record is 16 KB, and a gateway that sends its ZIP in small
 * chunked frames (32 KB from Go's io.Copy) would otherwise have each inflated as a step of its
 * own, each a round trip to the pool: 64 KB steps took 2.05–2.24 s where 256 KB steps took
 * 1.87–1.95 for a 660 MB archive (measured for issue 36). Chunks this long or longer, a Node
 * gateway's 256 KB frames, are inflated where they lie, uncopied.
 */
export const JOIN_BELOW = STEP / 2;
