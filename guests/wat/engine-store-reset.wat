;; engine-store-reset: a hostile guest for the reset of a reused store's
;; memory that copies back only the pages written since the last reset
;; (component/store_reset.go). An ordinary call ("touch") writes the same
;; few pages each time, so those stay unprotected between resets; one
;; call ("plant") then leaves a secret in pages no call wrote before, in
;; one of those touched pages, in the last page of memory, in the global,
;; and, through the host, in a page no guest code ever writes: the host
;; lowers plant's list argument into memory at the place realloc names.
;; A later store of the same component looks for any of it.
;;
;; Memory is 16 wasm pages (256 pages of 4 KiB, the host's page size), so
;; that the pages plant writes, every other one, are more regions than
;; one pass of the kernel's scan reports. Its core start function sets the
;; global and the word at 256 to 7, and a data segment puts "pristine" at
;; 512. Within a fresh store: memory is 16 pages, the global and word 256
;; read 7, bytes 512.. read "pristine", the words touch writes read 0, and
;; no word anywhere holds a secret the host chose.
;;
;; Exports:  test:guest/reset@0.1.0 {
;;             touch: func() (1 into word 64 of every third 4 KiB page of
;;               the first 80);
;;             plant: func(secret: u32, bytes: list<u8>) (the secret into
;;               the global, word 128 of every even 4 KiB page, word 64 of
;;               page 1, which touch writes, and the last word of memory;
;;               bytes, which the host wrote at page 201, are left alone);
;;             plant-trap: func(secret: u32, bytes: list<u8>) (plant, then
;;               trap);
;;             find: func(secret: u32) -> u32 (a bit set per trace found:
;;               1 the global holds it, 2 some word of memory holds it, 4
;;               memory is not 16 pages, 8 the start's or the segment's
;;               state is not as a fresh store has it, 16 a word touch
;;               writes is not 0) }
(component
  (core module $m
    (memory (export "memory") 16)
    (global $g (mut i32) (i32.const 0))
    (data (i32.const 512) "pristine")
    (func $init
      (global.set $g (i32.const 7))
      (i32.store (i32.const 256) (i32.const 7)))
    (start $init)
    ;; Every argument lands at the start of 4 KiB page 201 (823296).
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (i32.const 823296))
    (func (export "touch")
      (local $p i32)
      (local.set $p (i32.const 1))
      (block $done
        (loop $next
          (br_if $done (i32.ge_u (local.get $p) (i32.const 80)))
          (i32.store (i32.add (i32.mul (local.get $p) (i32.const 4096)) (i32.const 64)) (i32.const 1))
          (local.set $p (i32.add (local.get $p) (i32.const 3)))
          (br $next))))
    (func $plant (export "plant") (param $s i32) (param $ptr i32) (param $len i32)
      (local $p i32)
      (global.set $g (local.get $s))
      (block $done
        (loop $next
          (br_if $done (i32.ge_u (local.get $p) (i32.const 256)))
          (i32.store (i32.add (i32.mul (local.get $p) (i32.const 4096)) (i32.const 128)) (local.get $s))
          (local.set $p (i32.add (local.get $p) (i32.const 2)))
          (br $next)))
      (i32.store (i32.const 4160) (local.get $s))
      (i32.store (i32.const 1048572) (local.get $s)))
    (func $scan (param $s i32) (result i32)
      (local $p i32)
      (local $end i32)
      (local.set $end (i32.mul (memory.size) (i32.const 65536)))
      (block $done
        (loop $next
          (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
          (if (i32.eq (i32.load (local.get $p)) (local.get $s))
            (then (return (i32.const 2))))
          (local.set $p (i32.add (local.get $p) (i32.const 4)))
          (br $next)))
      (i32.const 0))
    (func $touched (result i32)
      (local $p i32)
      (local.set $p (i32.const 1))
      (block $done
        (loop $next
          (br_if $done (i32.ge_u (local.get $p) (i32.const 80)))
          (if (i32.load (i32.add (i32.mul (local.get $p) (i32.const 4096)) (i32.const 64)))
            (then (return (i32.const 16))))
          (local.set $p (i32.add (local.get $p) (i32.const 3)))
          (br $next)))
      (i32.const 0))
    (func (export "find") (param $s i32) (result i32)
      (local $r i32)
      (if (i32.eq (global.get $g) (local.get $s))
        (then (local.set $r (i32.const 1))))
      (local.set $r (i32.or (local.get $r) (call $scan (local.get $s))))
      (if (i32.ne (memory.size) (i32.const 16))
        (then (local.set $r (i32.or (local.get $r) (i32.const 4)))))
      (if (i32.or
            (i32.or (i32.ne (global.get $g) (i32.const 7))
                    (i32.ne (i32.load (i32.const 256)) (i32.const 7)))
            (i64.ne (i64.load (i32.const 512)) (i64.const 0x656e697473697270)))
        (then (local.set $r (i32.or (local.get $r) (i32.const 8)))))
      (i32.or (local.get $r) (call $touched)))
    (func (export "plant-trap") (param $s i32) (param $ptr i32) (param $len i32)
      (call $plant (local.get $s) (local.get $ptr) (local.get $len))
      (unreachable)))
  (core instance $i (instantiate $m))
  (alias core export $i "memory" (core memory $memory))
  (alias core export $i "realloc" (core func $realloc))
  (func $touch (canon lift (core func $i "touch")))
  (func $plant (param "secret" u32) (param "bytes" (list u8))
    (canon lift (core func $i "plant") (memory $memory) (realloc $realloc)))
  (func $plant-trap (param "secret" u32) (param "bytes" (list u8))
    (canon lift (core func $i "plant-trap") (memory $memory) (realloc $realloc)))
  (func $find (param "secret" u32) (result u32) (canon lift (core func $i "find")))
  (instance $api
    (export "touch" (func $touch))
    (export "plant" (func $plant))
    (export "plant-trap" (func $plant-trap))
    (export "find" (func $find)))
  (export "test:guest/reset@0.1.0" (instance $api)))
