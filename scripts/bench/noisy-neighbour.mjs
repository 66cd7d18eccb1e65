// The `--noisy` neighbour: what a busy shared machine does to a server beside it. One process that
// copies a 128 MiB buffer into another, back and forth, for as long as it lives: a core's worth of CPU
// and a stream of memory traffic far larger than any cache, so whoever shares the machine loses L2/L3
// contents and memory bandwidth, as on a crowded VM host. Buffer copies are memcpy in C++, so nearly
// all of its time is the streaming itself. The bench starts it unpinned at normal priority (the
// scheduler puts it beside server or load as it likes) and kills it with everything else.
const MIB = 1024 * 1024
const size = Number(process.env["NOISY_MIB"] ?? 128) * MIB
const a = Buffer.alloc(size, 1)
const b = Buffer.alloc(size, 2)
console.log(`noisy neighbour: copying ${size / MIB} MiB back and forth`)
for (;;) {
  a.copy(b)
  b.copy(a)
}
