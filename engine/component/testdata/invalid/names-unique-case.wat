;; Two imports whose names differ only in case.
(component
  (import "foo-bar" (func))
  (import "foo-BAR" (func))
)
