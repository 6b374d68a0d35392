package convert

// Checking behind the reader. The check of an observed input (convert
// --strict's: validate's rules, given the tokens of the input's XML
// reader) costs about as much as the parsing. Run in step with it, the two
// make one chain on one core, which the rest of the conversion waits for.
// A check that can run behind the reader (deferredCheck) records what the
// reader gives it, on the parsing goroutine, and checks it on a goroutine
// of its own, a batch at a time, in order, before the batch goes on to the
// reading goroutine: with what it reported held in the batch at the entry
// it came before, among the reader's warnings in the order the reading
// made them, and the normal form it computed for each entry.

// deferredCheck is the content of an observed input whose check can run
// behind its reader. DeferCheck is called once, before the reader reads
// on, with the function to make the check's reports through (each report
// is a function to run in its turn: see warnRoute.report); it returns the
// check's recorder, on the goroutine that reads: Mark is called after
// each entry the reader gives (and at each warning of the reader's), Bytes
// says how much memory what was recorded since the last cut holds (a batch
// ends past aheadBatchBytes of it too), and Cut, after the last entry of
// each batch, returns what checks the batch, calling onMark at each mark
// once what came before it is checked.
type deferredCheck interface {
	DeferCheck(route func(report func())) checkRecorder
}

// checkRecorder is what DeferCheck returns: an alias of the unnamed
// interface, so that a content outside the package (which cannot name it)
// declares DeferCheck with the same interface written out.
type checkRecorder = interface {
	Mark()
	Bytes() int
	Cut() func(onMark func())
}

// checkBatches checks each batch parsed, in order, and hands it on to the
// reading goroutine, until the reader ended or the reading stopped.
func (p *parsedAhead) checkBatches() {
	defer func() {
		p.running.Store(false)
		// The parsing goroutine ends too (it waits on stop, or ended):
		// done says both did.
		for range p.parsed {
		}
		close(p.done)
	}()
	forms := p.route.forms
	for {
		var b parsedBatch
		select {
		case got, ok := <-p.parsed:
			if !ok {
				return
			}
			b = got
		case <-p.stop:
			return
		}
		p.checking, p.at = &b, 0
		mark := 0
		b.check(func() {
			if pe := b.marks[mark]; pe != nil {
				b.warns = append(b.warns, heldWarning{at: p.at, pe: pe})
				mark++
				return
			}
			mark++
			f := heldForm{}
			if forms != nil {
				if key, scope, ok := forms.NormalForm(b.entries[p.at].Loc); ok {
					f = heldForm{key: key, scope: scope}
				}
			}
			b.forms = append(b.forms, f)
			p.at++
		})
		p.checking, b.check = nil, nil
		select {
		case p.full <- b:
		case <-p.stop:
			return
		}
		if b.err != nil {
			return
		}
	}
}

// holdReport keeps a report of the check, made on the checking goroutine,
// in the batch being checked, before the entry being checked; once that
// goroutine ended (the check ends when the input is closed), it makes it
// at once.
func (p *parsedAhead) holdReport(fn func()) {
	if !p.running.Load() {
		fn()
		return
	}
	p.checking.warns = append(p.checking.warns, heldWarning{at: p.at, report: fn})
}
