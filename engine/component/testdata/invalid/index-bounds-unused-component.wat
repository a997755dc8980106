;; An out-of-range index inside a nested component that is never instantiated.
(component
  (component
    (export "f" (func 3))
  )
)
