;; The line structure of a block of bytes, for the raw-row reader (line-scan.ts says why and how it is used).
;; Compile: `node scripts/wasm.mjs` (wabt's wat2wasm) writes the binary into line-scan-wasm.ts.
;;
;; The block is `memory[0, size)`, followed by at least 16 bytes the scanner may read (and ignores). `lines`
;; walks it from `pos` (a line's start) 16 bytes at a time: a byte ≤ 13 (tab, newline, carriage return and the
;; other control bytes) is found by one SIMD compare, the bytes above it are skipped. For each line it writes a
;; record of 16 i32 at `rec` + 64·n:
;;   0 start, 1 end (its newline, or `size` for the last line), 2 number of tabs, 3 number of other control
;;   bytes, 4 offset of the last of them (-1: none), 5…12 its first 8 tabs, 13 the hash of its first field
;;   (when it has a tab), 14 the hash of its sixth field (when it has 6 tabs or more); 15 unused.
;; The hash of bytes b[from, to) is h = to − from, then h = h·31 + byte for each byte, in 32-bit arithmetic
;; (rows.ts' Interned computes the same in JavaScript). It stops after `max` lines and returns how many it
;; wrote; the global `next` is then where the next line starts, or size + 1 once the last line is written.
(module
  (import "env" "memory" (memory 1))
  (global $next (export "next") (mut i32) (i32.const 0))

  (func $hash (param $from i32) (param $to i32) (result i32)
    (local $h i32)
    (local.set $h (i32.sub (local.get $to) (local.get $from)))
    (block $done
      (loop $byte
        (br_if $done (i32.ge_s (local.get $from) (local.get $to)))
        (local.set $h (i32.add (i32.mul (local.get $h) (i32.const 31)) (i32.load8_u (local.get $from))))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $byte)))
    (local.get $h))

  ;; The record of the line [start, end) at r (its tabs are already in place).
  (func $record (param $r i32) (param $start i32) (param $end i32) (param $tabs i32) (param $others i32)
                (param $other i32)
    (i32.store offset=0 (local.get $r) (local.get $start))
    (i32.store offset=4 (local.get $r) (local.get $end))
    (i32.store offset=8 (local.get $r) (local.get $tabs))
    (i32.store offset=12 (local.get $r) (local.get $others))
    (i32.store offset=16 (local.get $r) (local.get $other))
    (if (i32.gt_s (local.get $tabs) (i32.const 0))
      (then (i32.store offset=52 (local.get $r)
        (call $hash (local.get $start) (i32.load offset=20 (local.get $r))))))
    (if (i32.ge_s (local.get $tabs) (i32.const 6))
      (then (i32.store offset=56 (local.get $r)
        (call $hash (i32.add (i32.load offset=36 (local.get $r)) (i32.const 1))
                    (i32.load offset=40 (local.get $r)))))))

  (func (export "lines") (param $pos i32) (param $size i32) (param $rec i32) (param $max i32) (result i32)
    (local $i i32) (local $m i32) (local $x i32) (local $c i32) (local $n i32) (local $left i32)
    (local $start i32) (local $tabs i32) (local $others i32) (local $other i32) (local $r i32)
    (local.set $start (local.get $pos))
    (local.set $i (local.get $pos))
    (local.set $r (local.get $rec))
    (local.set $other (i32.const -1))
    (loop $window
      (if (i32.ge_s (local.get $i) (local.get $size))
        (then
          (call $record (local.get $r) (local.get $start) (local.get $size) (local.get $tabs)
            (local.get $others) (local.get $other))
          (global.set $next (i32.add (local.get $size) (i32.const 1)))
          (return (i32.add (local.get $n) (i32.const 1)))))
      ;; One bit per byte ≤ 13 of the 16 from i; none past the block.
      (local.set $m (i8x16.bitmask (i8x16.le_u (v128.load (local.get $i))
        (v128.const i8x16 13 13 13 13 13 13 13 13 13 13 13 13 13 13 13 13))))
      (local.set $left (i32.sub (local.get $size) (local.get $i)))
      (if (i32.lt_s (local.get $left) (i32.const 16))
        (then (local.set $m (i32.and (local.get $m)
          (i32.sub (i32.shl (i32.const 1) (local.get $left)) (i32.const 1))))))
      (block $bits_done
        (loop $bits
          (br_if $bits_done (i32.eqz (local.get $m)))
          (local.set $x (i32.add (local.get $i) (i32.ctz (local.get $m))))
          (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
          (local.set $c (i32.load8_u (local.get $x)))
          (if (i32.eq (local.get $c) (i32.const 10))
            (then
              (call $record (local.get $r) (local.get $start) (local.get $x) (local.get $tabs)
                (local.get $others) (local.get $other))
              (local.set $r (i32.add (local.get $r) (i32.const 64)))
              (local.set $n (i32.add (local.get $n) (i32.const 1)))
              (local.set $start (i32.add (local.get $x) (i32.const 1)))
              (local.set $tabs (i32.const 0))
              (local.set $others (i32.const 0))
              (local.set $other (i32.const -1))
              (if (i32.ge_s (local.get $n) (local.get $max))
                (then
                  (global.set $next (local.get $start))
                  (return (local.get $n)))))
            (else
              (if (i32.eq (local.get $c) (i32.const 9))
                (then
                  (if (i32.lt_s (local.get $tabs) (i32.const 8))
                    (then (i32.store offset=20
                      (i32.add (local.get $r) (i32.shl (local.get $tabs) (i32.const 2))) (local.get $x))))
                  (local.set $tabs (i32.add (local.get $tabs) (i32.const 1))))
                (else
                  (local.set $others (i32.add (local.get $others) (i32.const 1)))
                  (local.set $other (local.get $x))))))
          (br $bits)))
      (local.set $i (i32.add (local.get $i) (i32.const 16)))
      (br $window))
    (unreachable)))
