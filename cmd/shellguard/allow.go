package main

import "github.com/spf13/cobra"

func newClassifyCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "classify", Hidden: true} }

func newAllowCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "allow", Hidden: true} }
