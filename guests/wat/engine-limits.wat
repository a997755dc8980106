;; engine-limits: memory and table growth for the store-limit tests.
;;
;; Exports:  grow: func(pages: u32) -> s32 (memory.grow's answer: the old
;;             size in pages, or -1 when refused);
;;           grow-or-trap: func(pages: u32) (traps with unreachable when
;;             memory.grow is refused, as real guests' allocators do);
;;           table-grow: func(n: u32) -> s32 (table.grow's answer).
;; The memory starts at 1 page (64 KiB); the table at 2 elements.
(component
  (core module $m
    (memory 1)
    (table $t 2 funcref)
    (func (export "grow") (param i32) (result i32)
      (memory.grow (local.get 0)))
    (func (export "grow-or-trap") (param i32)
      (if (i32.eq (memory.grow (local.get 0)) (i32.const -1))
        (then unreachable)))
    (func (export "table-grow") (param i32) (result i32)
      (table.grow $t (ref.null func) (local.get 0))))
  (core instance $i (instantiate $m))
  (func (export "grow") (param "pages" u32) (result s32)
    (canon lift (core func $i "grow")))
  (func (export "grow-or-trap") (param "pages" u32)
    (canon lift (core func $i "grow-or-trap")))
  (func (export "table-grow") (param "n" u32) (result s32)
    (canon lift (core func $i "table-grow"))))
