import Responder
import Testing

/// DESIGN.md §1.1, rule by rule.
@Suite struct HitTestTests {
    let s = SceneProbe()

    @Test func laterSiblingIsOnTop() {
        let a = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let b = s.scene.add(window(bob, 50, 50, 100, 100), to: s.scene.root)!
        #expect(s.hit(p(75, 75))?.node == b)
        #expect(s.hit(p(25, 25))?.node == a)
        #expect(s.hit(p(75, 75))?.local == p(25, 25))
    }

    @Test func resultCarriesTheResponderChainUpToTheRoot() {
        let w = s.scene.add(window(alice, 100, 100, 200, 200), to: s.scene.root)!
        let sub = s.scene.add(subsurface(alice, 10, 10, 50, 50), to: w)!
        let hit = s.hit(p(120, 130))
        #expect(hit?.node == sub)
        #expect(hit?.local == p(10, 20))
        #expect(hit.map { Array($0.chain) } == [sub, w, s.scene.root])
    }

    @Test func subsurfaceBelowItsParentIsHitOnlyWhereTheParentIsNot() {
        let w = s.scene.add(window(alice, 100, 100, 100, 100), to: s.scene.root)!
        let below = s.scene.add(subsurface(alice, 50, 50, 100, 100), to: w, at: .below(w))!
        #expect(s.hit(p(170, 170))?.node == w)
        #expect(s.hit(p(220, 220))?.node == below)
        #expect(s.hit(p(220, 220))?.local == p(70, 70))
    }

    @Test func subsurfaceOutsideItsParentIsStillHit() {
        let w = s.scene.add(window(alice, 100, 100, 100, 100), to: s.scene.root)!
        let outside = s.scene.add(subsurface(alice, -60, -60, 50, 50), to: w)!
        #expect(s.hit(p(45, 45))?.node == outside)
        #expect(s.hit(p(45, 45))?.local == p(5, 5))
    }

    @Test func parentInputRegionDoesNotLimitChildren() {
        let w = s.scene.add(window(alice, 0, 0, 200, 200), to: s.scene.root)!
        s.scene.update(w) { $0.inputRegion = Region(Rect(x: 0, y: 0, width: 10, height: 10)) }
        let sub = s.scene.add(subsurface(alice, 100, 100, 50, 50), to: w)!
        #expect(s.hit(p(120, 120))?.node == sub)
        #expect(s.hit(p(50, 50)) == nil)
        #expect(s.hit(p(5, 5))?.node == w)
    }

    @Test func emptyInputRegionPassesThroughToTheSurfaceBelow() {
        let under = s.scene.add(window(alice, 0, 0, 200, 200), to: s.scene.root)!
        let over = s.scene.add(window(bob, 0, 0, 200, 200), to: s.scene.root)!
        s.scene.update(over) { $0.inputRegion = .empty }
        #expect(s.hit(p(50, 50))?.node == under)
    }

    @Test func holeInInputRegionPassesThrough() {
        let under = s.scene.add(window(alice, 0, 0, 200, 200), to: s.scene.root)!
        let over = s.scene.add(window(bob, 0, 0, 200, 200), to: s.scene.root)!
        var region = Region(Rect(x: 0, y: 0, width: 200, height: 200))
        region.subtract(Rect(x: 50, y: 50, width: 20, height: 20))
        s.scene.update(over) { $0.inputRegion = region }
        #expect(s.hit(p(60, 60))?.node == under)
        #expect(s.hit(p(40, 60))?.node == over)
    }

    @Test func inputRegionIsClippedToTheSurfaceSize() {
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        s.scene.update(w) { $0.inputRegion = Region(Rect(x: -50, y: -50, width: 500, height: 500)) }
        #expect(s.hit(p(150, 50)) == nil)
        #expect(s.hit(p(99, 99))?.node == w)
    }

    @Test func edgesAreHalfOpen() {
        let a = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let b = s.scene.add(window(bob, 100, 0, 100, 100), to: s.scene.root)!
        #expect(s.hit(p(100, 50))?.node == b)
        #expect(s.hit(p(99.99, 50))?.node == a)
        #expect(s.hit(p(50, 100)) == nil)
    }

    @Test func unmappedParentHidesItsSubtree() {
        let under = s.scene.add(window(bob, 0, 0, 500, 500), to: s.scene.root)!
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        s.scene.add(subsurface(alice, 200, 200, 50, 50), to: w)
        s.scene.update(w) { $0.isMapped = false }
        #expect(s.hit(p(210, 210))?.node == under)
        #expect(s.hit(p(10, 10))?.node == under)
    }

    @Test func unmappedSubsurfaceIsSkippedButItsParentIsNot() {
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let sub = s.scene.add(subsurface(alice, 10, 10, 50, 50), to: w)!
        s.scene.update(sub) { $0.isMapped = false }
        #expect(s.hit(p(20, 20))?.node == w)
    }

    @Test func compositorHiddenNodeHidesItsSubtree() {
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let sub = s.scene.add(subsurface(alice, 150, 0, 50, 50), to: w)!
        s.scene.update(w) { $0.isHidden = true }
        #expect(s.hit(p(10, 10)) == nil)
        #expect(s.hit(p(160, 10)) == nil)
        s.scene.update(w) { $0.isHidden = false }
        #expect(s.hit(p(160, 10))?.node == sub)
    }

    @Test func alphaBelowOneHundredthTakesNoInput() {
        let under = s.scene.add(window(bob, 0, 0, 100, 100), to: s.scene.root)!
        let fading = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        s.scene.update(fading) { $0.alpha = 0.009 }
        #expect(s.hit(p(50, 50))?.node == under)
        s.scene.update(fading) { $0.alpha = 0.01 }
        #expect(s.hit(p(50, 50))?.node == fading)
    }

    @Test func acceptsInputOffPassesTouchesThroughTheSubtree() {
        let under = s.scene.add(window(bob, 0, 0, 300, 300), to: s.scene.root)!
        let overlay = s.scene.add(.compositor(size: Size(width: 300, height: 300), inputRegion: .infinite), to: s.scene.root)!
        s.scene.add(subsurface(alice, 10, 10, 50, 50), to: overlay)
        s.scene.update(overlay) { $0.acceptsInput = false }
        #expect(s.hit(p(20, 20))?.node == under)
        #expect(s.hit(p(200, 200))?.node == under)
    }

    @Test func clipsToBoundsHidesChildrenOutsideTheCompositorNode() {
        let frame = s.scene.add(.compositor(position: Position(x: 100, y: 100), size: Size(width: 100, height: 100)), to: s.scene.root)!
        let content = s.scene.add(subsurface(alice, 50, 50, 100, 100), to: frame)!
        #expect(s.hit(p(220, 220))?.node == content)
        s.scene.update(frame) { $0.clipsToBounds = true }
        #expect(s.hit(p(220, 220)) == nil)
        #expect(s.hit(p(180, 180))?.node == content)
    }

    @Test func compositorNodeWithoutInputRegionLetsTouchesThrough() {
        let under = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        s.scene.add(.compositor(size: Size(width: 1000, height: 1000)), to: s.scene.root)
        #expect(s.hit(p(50, 50))?.node == under)
    }

    @Test func hitTestOverrideCapturesEveryTouch() {
        s.scene.add(window(alice, 0, 0, 1000, 1000), to: s.scene.root)
        let modal = s.scene.add(window(bob, 400, 400, 100, 100), to: s.scene.root)!
        s.scene.update(modal) { $0.hitTestOverride = { _ in .capture } }
        #expect(s.hit(p(10, 10))?.node == modal)
        #expect(s.hit(p(10, 10))?.local == p(-390, -390))
    }

    @Test func hitTestOverrideCanIgnoreASubtree() {
        let under = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let over = s.scene.add(window(bob, 0, 0, 100, 100), to: s.scene.root)!
        s.scene.update(over) { $0.hitTestOverride = { p in p.x < 50 ? .ignore : .walk } }
        #expect(s.hit(p(10, 10))?.node == under)
        #expect(s.hit(p(60, 10))?.node == over)
    }

    @Test func pointInsideOverrideEnlargesATouchTarget() {
        let button = s.scene.add(window(alice, 100, 100, 10, 10), to: s.scene.root)!
        s.scene.update(button) { $0.pointInsideOverride = { p in p.x >= -20 && p.x < 30 && p.y >= -20 && p.y < 30 } }
        #expect(s.hit(p(85, 85))?.node == button)
        #expect(s.hit(p(85, 85))?.local == p(-15, -15))
        #expect(s.hit(p(75, 85)) == nil)
    }

    @Test func restackingChangesWhoIsOnTop() {
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let a = s.scene.add(subsurface(alice, 0, 0, 50, 50), to: w)!
        let b = s.scene.add(subsurface(alice, 0, 0, 50, 50), to: w)!
        #expect(s.hit(p(10, 10))?.node == b)
        #expect(s.restack(b, to: .below(a)))
        #expect(s.hit(p(10, 10))?.node == a)
        #expect(s.restack(a, to: .below(w)))
        #expect(s.restack(b, to: .below(w)))
        #expect(s.hit(p(10, 10))?.node == w)
        #expect(s.scene.children(of: w).below == [a, b])
    }

    /// The repaint walks the stacking links instead of copying the lists: both must agree
    /// after restacks and removals, bottom first.
    @Test func stackingWalkListsTheChildrenAsChildrenDoes() {
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let a = s.scene.add(subsurface(alice, 0, 0, 50, 50), to: w)!
        let b = s.scene.add(subsurface(alice, 0, 0, 50, 50), to: w)!
        let c = s.scene.add(subsurface(alice, 0, 0, 50, 50), to: w)!
        #expect(s.restack(c, to: .below(w)))
        #expect(s.restack(a, to: .above(c)))
        #expect(s.restack(b, to: .above(a)))
        #expect(s.remove(a))
        let walked = s.scene.stacking(of: w)
        #expect(Array(walked.below) == s.scene.children(of: w).below)
        #expect(Array(walked.below) == [c, b])
        #expect(Array(walked.above).isEmpty)
        #expect(Array(s.scene.stacking(of: s.scene.root).above) == [w])
        #expect(s.remove(w))
        #expect(Array(s.scene.stacking(of: w).below).isEmpty)
    }

    @Test func restackRefusesASiblingFromAnotherParent() {
        let w1 = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let w2 = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let a = s.scene.add(subsurface(alice, 0, 0, 50, 50), to: w1)!
        let b = s.scene.add(subsurface(alice, 0, 0, 50, 50), to: w2)!
        #expect(!s.restack(a, to: .above(b)))
        #expect(!s.restack(a, to: .above(w2)))
        #expect(s.scene.children(of: w1).above == [a])
    }

    @Test func removedSubtreeIsGoneAndItsIDsStayDeadAfterSlotReuse() {
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let sub = s.scene.add(subsurface(alice, 0, 0, 50, 50), to: w)!
        #expect(s.remove(w))
        #expect(!s.scene.contains(w) && !s.scene.contains(sub))
        #expect(s.hit(p(10, 10)) == nil)
        let reused = s.scene.add(window(bob, 0, 0, 100, 100), to: s.scene.root)!
        #expect(reused.slot == sub.slot || reused.slot == w.slot)
        #expect(!s.scene.contains(w) && !s.scene.contains(sub))
        let updatedStale = s.scene.update(sub) { $0.isHidden = true }
        #expect(!updatedStale)
        #expect(s.hit(p(10, 10))?.node == reused)
    }

    @Test func movingANodeMovesItsSubtreeHitArea() {
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let sub = s.scene.add(subsurface(alice, 150, 0, 20, 20), to: w)!
        s.scene.update(w) { $0.position = Position(x: 500, y: 500) }
        #expect(s.hit(p(655, 505))?.node == sub)
        #expect(s.hit(p(155, 5)) == nil)
    }

    @Test func explanationGivesTheReasonForEachNode() {
        let hiddenWindow = s.scene.add(window(bob, 0, 0, 100, 100), to: s.scene.root)!
        let w = s.scene.add(window(alice, 0, 0, 100, 100), to: s.scene.root)!
        let far = s.scene.add(subsurface(alice, 500, 500, 10, 10), to: w)!
        let unmapped = s.scene.add(subsurface(alice, 0, 0, 100, 100), to: w)!
        s.scene.update(unmapped) { $0.isMapped = false }
        s.scene.update(hiddenWindow) { $0.isHidden = true }
        let hit = s.scene.explainHitTest(at: p(10, 10))
        #expect(hit.result?.node == w)
        #expect(hit.steps.map(\.node) == [unmapped, far, w])
        #expect(hit.steps.map(\.verdict) == [.unmapped, .pruned, .hit])
        let miss = s.scene.explainHitTest(at: p(300, 300))
        #expect(miss.result == nil)
        #expect(miss.steps.map(\.node) == [unmapped, far, w, hiddenWindow, s.root])
        #expect(miss.steps.map(\.verdict) == [.unmapped, .pruned, .notInside, .hidden, .notInside])
        #expect(miss.steps[1].local == p(-200, -200))
        let outside = s.scene.explainHitTest(at: p(900, 900))
        #expect(outside.steps.map(\.verdict) == [.pruned])
    }
}
