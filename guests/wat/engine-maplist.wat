;; engine-maplist: values of map and fixed-length list types through the
;; canonical ABI, in both directions, and two hostile results.
;;
;; Exports:  rev4: func(a: list<u32, 4>) -> list<u32, 4>
;;             the elements reversed (flat parameters, result in memory)
;;           sum100: func(a: list<u8, 100>) -> u32
;;             the sum of the bytes (parameters spilled to memory)
;;           echo-map: func(m: map<string, u32>) -> map<string, u32>
;;             its argument unchanged, pairs in order
;;           via-host: func(m: map<string, u32>, a: list<u32, 2>) -> map<string, u32>
;;             what the imported host function returns for the same arguments
;;           bad-map: func() -> map<string, u32>
;;             a map of 2^31 pairs: lifting it must trap
;;           bad-fixed: func() -> list<string, 2>
;;             its second string points past the end of memory: must trap
;; Imports:  host: func(m: map<string, u32>, a: list<u32, 2>) -> map<string, u32>
(component
  (import "host" (func $host (param "m" (map string u32)) (param "a" (list u32 2)) (result (map string u32))))
  (core module $libc
    (memory (export "memory") 1)
    (global $bump (mut i32) (i32.const 1024))
    ;; Bump allocator aligned to the requested alignment; growing copies.
    (func (export "realloc") (param $old i32) (param $old-size i32) (param $align i32) (param $size i32) (result i32)
      (local $p i32)
      (if (i32.and (i32.ne (local.get $old) (i32.const 0))
                   (i32.le_u (local.get $size) (local.get $old-size)))
        (then (return (local.get $old))))
      (local.set $p
        (i32.and
          (i32.add (global.get $bump) (i32.sub (local.get $align) (i32.const 1)))
          (i32.sub (i32.const 0) (local.get $align))))
      (global.set $bump (i32.add (local.get $p) (local.get $size)))
      (if (i32.ne (local.get $old) (i32.const 0))
        (then (memory.copy (local.get $p) (local.get $old) (local.get $old-size))))
      (local.get $p)))
  (core instance $libc (instantiate $libc))
  (alias core export $libc "memory" (core memory $memory))
  (alias core export $libc "realloc" (core func $realloc))
  (core func $host-lowered (canon lower (func $host) (memory $memory) (realloc $realloc)))
  (core module $m
    (import "libc" "memory" (memory 1))
    ;; map (ptr, len), list<u32, 2> (two i32), and the return area.
    (import "host" "f" (func $host (param i32 i32 i32 i32 i32)))
    (func (export "rev4") (param i32 i32 i32 i32) (result i32)
      (i32.store (i32.const 16) (local.get 3))
      (i32.store (i32.const 20) (local.get 2))
      (i32.store (i32.const 24) (local.get 1))
      (i32.store (i32.const 28) (local.get 0))
      (i32.const 16))
    (func (export "sum100") (param $p i32) (result i32)
      (local $i i32) (local $s i32)
      (block $done
        (loop $next
          (br_if $done (i32.ge_u (local.get $i) (i32.const 100)))
          (local.set $s (i32.add (local.get $s) (i32.load8_u (i32.add (local.get $p) (local.get $i)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $next)))
      (local.get $s))
    (func (export "echo-map") (param i32 i32) (result i32)
      (i32.store (i32.const 32) (local.get 0))
      (i32.store (i32.const 36) (local.get 1))
      (i32.const 32))
    (func (export "via-host") (param i32 i32 i32 i32) (result i32)
      (call $host (local.get 0) (local.get 1) (local.get 2) (local.get 3) (i32.const 64))
      (i32.const 64))
    (func (export "bad-map") (result i32)
      (i32.store (i32.const 40) (i32.const 0))
      (i32.store (i32.const 44) (i32.const 0x80000000))
      (i32.const 40))
    (func (export "bad-fixed") (result i32)
      (i32.store (i32.const 48) (i32.const 0))
      (i32.store (i32.const 52) (i32.const 0))
      (i32.store (i32.const 56) (i32.const 0xfffffff0))
      (i32.store (i32.const 60) (i32.const 100))
      (i32.const 48)))
  (core instance $i (instantiate $m
    (with "libc" (instance $libc))
    (with "host" (instance (export "f" (func $host-lowered))))))
  (func (export "rev4") (param "a" (list u32 4)) (result (list u32 4))
    (canon lift (core func $i "rev4") (memory $memory)))
  (func (export "sum100") (param "a" (list u8 100)) (result u32)
    (canon lift (core func $i "sum100") (memory $memory) (realloc $realloc)))
  (func (export "echo-map") (param "m" (map string u32)) (result (map string u32))
    (canon lift (core func $i "echo-map") (memory $memory) (realloc $realloc)))
  (func (export "via-host") (param "m" (map string u32)) (param "a" (list u32 2)) (result (map string u32))
    (canon lift (core func $i "via-host") (memory $memory) (realloc $realloc)))
  (func (export "bad-map") (result (map string u32))
    (canon lift (core func $i "bad-map") (memory $memory)))
  (func (export "bad-fixed") (result (list string 2))
    (canon lift (core func $i "bad-fixed") (memory $memory))))
